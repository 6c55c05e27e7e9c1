// Schema Management data. The server checks the structured data (JSON-LD)
// every indexable page really serves (package schemacheck: after each
// deploy and content change, and on Validate All) and keeps the latest
// result; the screen reads it through SchemaSource. The two templates are
// blocks the site serves now, read from their pages. Nothing here is a
// sample. ADR 022.
import { api } from "../api";
import type * as wire from "../api.gen";

export type SchemaStatus = wire.SchemaTypeResult["status"];
export type SchemaPriority = wire.SchemaTypeResult["priority"];

/** SchemaMessage is one error or warning across the site: how many pages
 * show it and the first of them. */
export type SchemaMessage = wire.SchemaMessage;

/** SchemaTypeResult is one schema type across every checked page: spec
 * 3's schema record (type, status, pages, description, priority) and its
 * validation result (type, valid, errors, warnings). */
export type SchemaTypeResult = wire.SchemaTypeResult;

/** SchemaRun is one check of every indexable page. Items are what the
 * score weighs; valid those without an error. */
export type SchemaRun = wire.SchemaRun;

/** SchemaCards are the four summary cards; measured is false before the
 * first check (the score is then spec 5's default). */
export type SchemaCards = wire.SchemaCards;

export type SchemaFinding = wire.SchemaFinding;
export type SchemaPage = wire.SchemaPage;

/** SchemaTemplate is a block a page serves now (json), or why it could
 * not be read (error). */
export type SchemaTemplate = wire.SchemaTemplate;

/** SchemaData is GET /api/admin/schema (web/audits.SchemaReport): routes
 * is how many pages a check covers now; how says how each card is computed. */
export type SchemaData = wire.SchemaData;

export interface SchemaSource {
  load(): Promise<SchemaData>;
  /** generator lists each type's pages; generate reads a page's JSON-LD of a type. */
  generator(): Promise<wire.GeneratorOptions>;
  generate(type: string, path: string): Promise<Generated>;
  /** validate asks the server for a check now; after is the run it replaces. */
  validate(): Promise<wire.Queued>;
}

/** GENERATOR_TYPES are the Schema Generator's type options (spec 2.4). */
export const GENERATOR_TYPES = ["LocalBusiness", "Service", "Article", "FAQ", "Review"] as const;

/** GeneratorPage is a page the generator offers for a type, with the
 * kind of page it is ("City pages"). */
export type GeneratorPage = wire.GeneratorPage;
/** GeneratorType is a type with the site's pages that carry it
 * (GET /api/admin/schema/generator); note says why the list is empty. */
export type GeneratorType = wire.GeneratorType;
/** Generated is the JSON-LD of a type a page serves now
 * (GET /api/admin/schema/generate); note says why json is empty. */
export type Generated = wire.Generated;

/** VALIDATE_DELAY_MS is spec 9's 2 s schema validation: Validate All now
 * runs the server's check and shows "Validating..." for at least this long. */
export const VALIDATE_DELAY_MS = 2000;

export const liveSchema: SchemaSource = {
  load: () => api("/api/admin/schema"),
  validate: () => api("/api/admin/schema/validate", { method: "POST" }),
  generator: () => api("/api/admin/schema/generator"),
  generate: (type, path) => api(`/api/admin/schema/generate?type=${encodeURIComponent(type)}&path=${encodeURIComponent(path)}`),
};
