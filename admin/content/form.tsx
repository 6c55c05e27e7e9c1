// The content editor's form: the kind's sections of fields, each field
// with its control and its shown problems, and the bar that saves,
// publishes and previews.
import { getAt, previewUrl, setAt, type ContentProblem, type Field, type ItemDetail } from "../data/content";
import { Button } from "../ui";
import { BodyEditor } from "./body-editor";
import type { Draft } from "./draft";
import { FieldControl } from "./fields";
import { IconPicker } from "./icon-picker";
import { ImageField } from "./image-field";
import { RecordPicker } from "./record-picker";
import { WordingField } from "./wording-field";

/** FieldView is one field's control: the kind of field picks it. */
function FieldView({ f, item, data, onChange, problems }: {
  f: Field; item: ItemDetail; data: any; onChange: (v: any) => void; problems: ContentProblem[];
}) {
  const value = getAt(data, f.key);
  if (f.type === "body") return <BodyEditor fieldKey={f.key} label={f.label} hint={f.hint} value={typeof value === "string" ? value : ""} onChange={onChange} problems={problems} />;
  if (f.type === "wording") return <WordingField field={f} value={value} onChange={onChange} problems={problems} />;
  if (f.type === "refs") return <RecordPicker field={f} value={value} onChange={onChange} problems={problems} self={item.id} county={item.kind === "county" ? item.slug : undefined} />;
  if (f.type === "image") return <ImageField fieldKey={f.key} label={f.label} value={value} onChange={onChange} problems={problems} />;
  if (f.type === "icon") return <IconPicker fieldKey={f.key} label={f.label} hint={f.hint} value={typeof value === "string" ? value : ""} onChange={onChange} problems={problems} />;
  // The reading time and the empty SEO texts are the server's work.
  const derived = f.key === "seoTitle" || f.key === "metaDescription" ? item.derived?.[f.key] : undefined;
  const shownValue = f.key === "readTime" && item.derived ? item.derived.readTime : value;
  return <FieldControl field={f} value={shownValue} onChange={onChange} problems={problems} data={data} derived={derived} />;
}

/** EditorForm is the form of a loaded draft. forField gives a field's
 * shown problems and touch its wrapper's blur handler (problems.tsx);
 * busy is the action under way, saved what the last one did. */
export function EditorForm({ draft, item, forField, touch, busy, saved, onSave, onPublish, onPreview }: {
  draft: Draft; item: ItemDetail; forField: (f: Field) => ContentProblem[]; touch: (key: string) => (e: React.FocusEvent<HTMLDivElement>) => void;
  busy: string | null; saved: string; onSave: () => void; onPublish: () => void; onPreview: (e: React.MouseEvent<HTMLAnchorElement>) => void;
}) {
  const { data, info, dirty } = draft;
  const upToDate = item.status === "published" && !item.pending && !dirty;
  return (
    <form className="ac-form" noValidate onSubmit={(e) => { e.preventDefault(); onSave(); }} aria-label={`Edit ${info.one}`}>
      {info.sections.filter((s) => !s.when || (getAt(data, s.when) && typeof getAt(data, s.when) === "object")).map((s) => (
        <section key={s.title} className="a-card ac-section" aria-label={s.title}>
          <h2 className="a-card__title">{s.title}</h2>
          {s.intro && <p className="ac-hint">{s.intro}</p>}
          {s.fields.map((f) => (
            <div key={f.key} className="ac-fieldwrap" onBlur={touch(f.key)}>
              <FieldView f={f} item={item} data={data} problems={forField(f)}
                onChange={(v) => draft.setData(setAt(draft.dataRef.current, f.key, v))} />
            </div>
          ))}
        </section>
      ))}

      <div className="ac-bar" role="group" aria-label="Save and publish">
        <Button type="submit" disabled={busy !== null || !dirty}>{busy === "save" ? "Saving..." : "Save draft"}</Button>
        <Button variant={dirty ? "outline" : "primary"} onClick={onPublish} disabled={busy !== null || upToDate}>{busy === "publish" ? "Publishing..." : "Publish"}</Button>
        <a className="a-btn a-btn--outline" href={previewUrl(item.id)} target="_blank" rel="noopener" onClick={onPreview} aria-disabled={busy !== null || undefined}>
          {busy === "preview" ? "Saving..." : "Preview"}<span className="visually-hidden"> (opens in a new tab; unsaved changes are saved first)</span>
        </a>
        <p className="ac-bar__state" role="status">{dirty ? "Unsaved changes" : saved || "No unsaved changes"}</p>
      </div>
    </form>
  );
}
