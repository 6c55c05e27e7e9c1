// Dashboard data. The values are spec 2.4's fixed samples; a real source
// (measurements, audit results) can implement DashboardSource later
// without touching the screen.

export interface DashboardTile { label: string; value: string; hint: string }
export interface ToolCard { slug: string; title: string; description: string; status: "Secure" | "Ready" | "Active" | "Monitoring" | "Available" | "Optimized"; priority: "high" | "medium" | "low" }
export interface Activity { what: string; when: string }
export interface DashboardData { tiles: DashboardTile[]; tools: ToolCard[]; activity: Activity[] }

export interface DashboardSource { load(): DashboardData }

export const sampleDashboard: DashboardSource = {
  load: () => ({
    tiles: [
      { label: "SEO Score", value: "87%", hint: "Site-wide audit" },
      { label: "Page Speed", value: "92", hint: "Mobile performance" },
      { label: "Location Pages", value: "42", hint: "County and city pages" },
      { label: "Security Issues", value: "0", hint: "Open findings" },
    ],
    tools: [
      { slug: "upload", title: "Photo Upload", description: "Add project photos and videos to the portfolio.", status: "Ready", priority: "high" },
      { slug: "seo-audit", title: "SEO Audit", description: "Check titles, descriptions and local SEO.", status: "Active", priority: "high" },
      { slug: "indexnow", title: "SEO & IndexNow", description: "Route health and search-engine submission.", status: "Active", priority: "high" },
      { slug: "security", title: "Security Scanner", description: "Hardening checks and vulnerabilities.", status: "Secure", priority: "high" },
      { slug: "performance", title: "Performance Monitor", description: "Core Web Vitals and recommendations.", status: "Monitoring", priority: "medium" },
      { slug: "analytics", title: "Analytics", description: "Traffic sources, conversions and goals.", status: "Monitoring", priority: "medium" },
      { slug: "schema", title: "Schema Management", description: "Structured data templates and validation.", status: "Optimized", priority: "medium" },
      { slug: "locations", title: "Location Pages", description: "County and city landing pages.", status: "Active", priority: "medium" },
      { slug: "content", title: "Content Management", description: "Pages and blog posts.", status: "Available", priority: "low" },
      { slug: "settings", title: "System Settings", description: "Business details and feature switches.", status: "Available", priority: "low" },
    ],
    activity: [
      { what: "SEO audit completed: 87% site score", when: "2 hours ago" },
      { what: "6 project photos uploaded to Kitchen Fire Repair", when: "Yesterday" },
      { what: "Sitemap resubmitted through IndexNow", when: "2 days ago" },
      { what: "Security scan finished with no open issues", when: "3 days ago" },
      { what: "New city page published: Peachtree City", when: "1 week ago" },
    ],
  }),
};
