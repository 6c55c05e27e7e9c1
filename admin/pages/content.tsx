import "../../styles/admin-manage.css";
import { useId } from "react";
import { Icon } from "../../components/icons";
import { CONTENT_NOT_WIRED, sampleContent, type ContentSource } from "../data/content";
import type { AdminPageProps } from "../types";
import { Button, Card, PageHeader } from "../ui";

/** Content Management lists the editable pages. Creating and editing are
 * not wired (spec 2.4): the buttons are disabled and say why. */
export default function Content({ source = sampleContent }: AdminPageProps & { source?: ContentSource }) {
  const d = source.load();
  const note = useId();
  return (
    <>
      <PageHeader title="Content Management" description="Pages and blog posts on the website."
        actions={<>
          <Button disabled aria-describedby={note}>Create New Page</Button>
          <Button variant="outline" disabled aria-describedby={note}>Create New Blog Post</Button>
        </>} />
      <div className="am-note" id={note}>
        <Icon name="alert-triangle" size={18} />
        <p>{CONTENT_NOT_WIRED}</p>
      </div>
      <Card title="Pages" description="Main pages of the website.">
        <ul className="am-list">
          {d.pages.map((p) => (
            <li key={p.path}>
              <div className="am-list__main">
                <p className="am-list__title"><Icon name="file-text" size={16} />{p.name} <span className="a-muted">{p.path}</span></p>
                <p className="am-list__desc">{p.description}</p>
              </div>
              <div className="am-list__actions">
                <a className="a-link" href={p.path} target="_blank" rel="noopener">View<span className="visually-hidden"> {p.name} (opens in a new tab)</span></a>
                <Button variant="outline" className="a-btn a-btn--outline am-btn-sm" disabled aria-describedby={note} aria-label={`Edit ${p.name}`}>Edit</Button>
              </div>
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Blog Posts" description="Articles live in content/blog, one file per post.">
        <a className="a-link" href={d.blogPath} target="_blank" rel="noopener">View the blog<span className="visually-hidden"> (opens in a new tab)</span> <Icon name="arrow-right" size={14} /></a>
      </Card>
    </>
  );
}
