import { useId } from "react";
import { LeadPicker } from "./lead";
import { monthName, wordCount, type JobChoices, type JobDetail, type JobFields } from "../data/jobs";

/** JobFieldsForm is a job's fields: title, city (the one the photos
 * suggest marked), month, damage type, story with its word count, and
 * the homeowner's name with their agreement. */
export function JobFieldsForm({ job, choices, fields, onChange }: { job: JobDetail; choices: JobChoices | null | undefined; fields: JobFields; onChange: (f: JobFields) => void }) {
  const id = useId();
  const set = <K extends keyof JobFields>(k: K, v: JobFields[K]) => onChange({ ...fields, [k]: v });
  const rules = choices?.rules;
  const suggested = choices?.cities.find((c) => c.id === job.suggestedCityId);
  const words = wordCount(fields.story);
  return (
    <>
      <div className="a-field">
        <label className="a-label" htmlFor={id + "title"}>Job title</label>
        <input id={id + "title"} className="a-input" value={fields.title} maxLength={rules?.maxTitle} required onChange={(e) => set("title", e.target.value)} />
      </div>
      <div className="a-field">
        <label className="a-label" htmlFor={id + "city"}>City</label>
        <select id={id + "city"} className="a-input" value={fields.cityId} aria-describedby={id + "city-hint"} onChange={(e) => set("cityId", e.target.value)} disabled={!choices}>
          <option value="">Not chosen yet</option>
          {choices?.cities.map((c) => <option key={c.id} value={c.id}>{c.name}{c.id === job.suggestedCityId ? " (where the photos were taken)" : ""}</option>)}
        </select>
        <p className="a-muted aj-hint" id={id + "city-hint"}>
          {suggested ? <>The photos were taken near <strong>{suggested.name}</strong>.{" "}
            {fields.cityId !== suggested.id && <button type="button" className="a-link" onClick={() => set("cityId", suggested.id)}>Use {suggested.name}</button>}</>
            : job.photos.length > 0 ? "The photos do not say where they were taken near one of your cities: pick the city." : "Add photos and the city they were taken in is suggested here."}
          {" "}The site shows the city only, never the address.
        </p>
      </div>
      <div className="a-field">
        <label className="a-label" htmlFor={id + "month"}>Month of the work</label>
        <input id={id + "month"} type="month" className="a-input aj-month" value={fields.month} onChange={(e) => set("month", e.target.value)} />
        {job.suggestedMonth && fields.month !== job.suggestedMonth && (
          <p className="a-muted aj-hint">The photos were taken in {monthName(job.suggestedMonth)}. <button type="button" className="a-link" onClick={() => set("month", job.suggestedMonth)}>Use {monthName(job.suggestedMonth)}</button></p>
        )}
      </div>
      <div className="a-field">
        <label className="a-label" htmlFor={id + "service"}>Damage type</label>
        <select id={id + "service"} className="a-input" value={fields.service} onChange={(e) => set("service", e.target.value)} disabled={!choices}>
          <option value="">Not chosen yet</option>
          {choices?.services.map((s) => <option key={s.id} value={s.id}>{s.title}</option>)}
        </select>
      </div>
      <div className="a-field">
        <label className="a-label" htmlFor={id + "story"}>The story (optional)</label>
        <textarea id={id + "story"} className="a-input aj-story" rows={6} value={fields.story} maxLength={rules?.maxStory} aria-describedby={id + "story-count"}
          onChange={(e) => set("story", e.target.value)} placeholder="What happened, what the crew found and what they did." />
        <p className="a-muted aj-hint" id={id + "story-count"} aria-live="polite">
          {words.toLocaleString("en-US")} {words === 1 ? "word" : "words"}. The job gets a page of its own with at least {rules?.minPhotos ?? 2} photos and {rules?.minWords ?? 60} words; with less it still shows on its city's page.
        </p>
      </div>
      {job.mayLinkLead && <LeadPicker value={fields.leadId} onChange={(v) => set("leadId", v)} />}
      <fieldset className="aj-fieldset">
        <legend className="a-label">The homeowner</legend>
        <div className="a-field">
          <label className="a-label" htmlFor={id + "name"}>Homeowner's name (optional)</label>
          <input id={id + "name"} className="a-input" value={fields.customerName} maxLength={rules?.maxName} autoComplete="off" onChange={(e) => set("customerName", e.target.value)} />
        </div>
        <label className="aj-check">
          <input type="checkbox" checked={fields.nameConsent} disabled={!fields.customerName.trim()} onChange={(e) => set("nameConsent", e.target.checked)} />
          <span>The homeowner agreed to show their name</span>
        </label>
        <p className="a-muted aj-hint">Without their agreement the name stays here and never appears on the site.</p>
      </fieldset>
    </>
  );
}
