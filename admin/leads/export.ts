// The admins' CSV exports of the leads list (with the list's filters).
import { useState } from "react";
import { apiFetch, ApiError, titledError } from "../api";
import { useToast } from "../toast";
import { filterParams, type Filters } from "./query";

/** saveBlob hands a file to the browser's downloads. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** useLeadExport is Export CSV and Export with source. */
export function useLeadExport(filters: Filters) {
  const toast = useToast();
  const [exporting, setExporting] = useState<"" | "plain" | "source">("");
  const exportCsv = async (withSource: boolean) => {
    setExporting(withSource ? "source" : "plain");
    try {
      const params = filterParams(filters);
      if (withSource) params.set("with", "source");
      const res = await apiFetch("/api/admin/leads/export.csv?" + params.toString());
      if (res.status === 401) return;
      if (!res.ok) {
        const body = await res.json().catch(() => null);
        throw new ApiError(res.status, body?.error || `HTTP ${res.status}`, body);
      }
      saveBlob(await res.blob(), withSource ? "leads-export-with-source.csv" : "leads-export.csv");
      toast({ title: "Export Complete", description: "Lead data exported successfully" });
    } catch (err) {
      toast(titledError(err) ? { ...titledError(err)!, variant: "destructive" } : { title: "Export Failed", description: "Failed to export lead data", variant: "destructive" });
    } finally {
      setExporting("");
    }
  };
  return { exporting, exportCsv };
}
