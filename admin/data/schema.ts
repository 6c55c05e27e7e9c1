// Schema Management data. The server checks the structured data (JSON-LD)
// every indexable page really serves (package schemacheck: after each
// deploy and content change, and on Validate All) and keeps the latest
// result; the screen reads it through SchemaSource. The two templates are
// blocks the site serves now, read from their pages. Nothing here is a
// sample. ADR 022.
import { api } from "../api";

export type SchemaStatus = "active" | "missing";
export type SchemaPriority = "critical" | "high" | "medium" | "low";

/** SchemaMessage is one error or warning across the site: how many pages
 * show it and the first of them. */
export interface SchemaMessage { text: string; property?: string; pages: number; example: string }

/** SchemaTypeResult is one schema type across every checked page: spec
 * 3's schema record (type, status, pages, description, priority) and its
 * validation result (type, valid, errors, warnings). */
export interface SchemaTypeResult {
  type: string;
  status: SchemaStatus;
  /** pages carry it; expected pages' kinds must; missingOn of those lack it */
  pages: number;
  expected: number;
  missingOn: number;
  description: string;
  priority: SchemaPriority;
  /** source is the documentation the rules follow */
  source?: string;
  /** validated is false for types with no rules (counted, not checked) */
  validated: boolean;
  valid: boolean;
  errors: SchemaMessage[];
  warnings: SchemaMessage[];
}

/** SchemaRun is one check of every indexable page. Items are what the
 * score weighs; valid those without an error. */
export interface SchemaRun {
  id: string; startedAt: string; finishedAt: string; trigger: "deploy" | "content" | "manual"; baseUrl: string;
  pages: number; covered: number; unreadable: number; items: number; valid: number; errors: number; warnings: number; score: number;
}

/** SchemaCards are the four summary cards; measured is false before the
 * first check (the score is then spec 5's default). */
export interface SchemaCards { active: number; missing: number; missingPages: number; covered: number; pages: number; score: number; measured: boolean }

export interface SchemaFinding { type: string; severity: "error" | "warning"; property?: string; message: string }
export interface SchemaPage { path: string; kind: string; statusCode: number; types: string[]; expected: string[]; missing: string[]; items: number; valid: number; findings: SchemaFinding[]; error?: string }

/** SchemaTemplate is a block a page serves now (json), or why it could
 * not be read (error). */
export interface SchemaTemplate { type: string; description: string; fileName: string; path: string; json?: Record<string, unknown>; error?: string }

/** SchemaData is GET /api/admin/schema. */
export interface SchemaData {
  run: SchemaRun | null;
  cards: SchemaCards;
  types: SchemaTypeResult[];
  pages: SchemaPage[];
  templates: SchemaTemplate[];
  /** routes is how many pages a check covers now */
  routes: number;
  /** how says how each card is computed */
  how: Record<string, string>;
}

export interface SchemaSource {
  load(): Promise<SchemaData>;
  /** generator lists each type's pages; generate reads a page's JSON-LD of a type. */
  generator(): Promise<{ types: GeneratorType[] }>;
  generate(type: string, path: string): Promise<Generated>;
  /** validate asks the server for a check now; after is the run it replaces. */
  validate(): Promise<{ after: string }>;
}

/** GENERATOR_TYPES are the Schema Generator's type options (spec 2.4). */
export const GENERATOR_TYPES = ["LocalBusiness", "Service", "Article", "FAQ", "Review"] as const;

/** GeneratorPage is a page the generator offers for a type, with the
 * kind of page it is ("City pages"). */
export interface GeneratorPage { path: string; group: string }
/** GeneratorType is a type with the site's pages that carry it
 * (GET /api/admin/schema/generator); note says why the list is empty. */
export interface GeneratorType { type: string; pages: GeneratorPage[]; note?: string }
/** Generated is the JSON-LD of a type a page serves now
 * (GET /api/admin/schema/generate); note says why json is empty. */
export interface Generated { type: string; path: string; json: Record<string, unknown>[]; fileName: string; note?: string }

/** VALIDATE_DELAY_MS is spec 9's 2 s schema validation: Validate All now
 * runs the server's check and shows "Validating..." for at least this long. */
export const VALIDATE_DELAY_MS = 2000;

/** DEFAULT_VALIDATION_SCORE is shown when there is nothing to score (spec
 * 5); the server sends it too. */
export const DEFAULT_VALIDATION_SCORE = 98;

export const liveSchema: SchemaSource = {
  load: () => api("/api/admin/schema"),
  validate: () => api("/api/admin/schema/validate", { method: "POST" }),
  generator: () => api("/api/admin/schema/generator"),
  generate: (type, path) => api(`/api/admin/schema/generate?type=${encodeURIComponent(type)}&path=${encodeURIComponent(path)}`),
};
