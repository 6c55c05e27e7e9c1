package ssr

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// kitchenSink is a page that goes through every path the patches touch:
// useId at every depth (in arrays, nested arrays, after a hook, through
// forwardRef and memo, twice in one component), Suspense with and without
// a suspended child (a suspended task is made inside an array, so its tree
// context is resolved while the loop points at it, and its segment becomes
// a child of the flushed one), text that needs escaping, non-ASCII and
// surrogate pairs, attributes of every kind React treats apart (boolean,
// numeric, URL, style, data-, aria-, event handlers, unknown), void
// elements, select/option/textarea/input, dangerouslySetInnerHTML, custom
// elements and SVG.
const kitchenSink = `import { Suspense, forwardRef, memo, useId, useState, Fragment } from "react";

function Id({ label }: { label: string }) {
  const id = useId();
  return <label htmlFor={id} data-label={label}>{label}<input id={id} aria-describedby={id + "-d"} /></label>;
}
function TwoIds() {
  const [n] = useState(2);
  const a = useId();
  const b = useId();
  return <p id={a} title={b}>{n} ids: {a} {b}</p>;
}
const Ref = forwardRef<HTMLDivElement, { t: string }>(function Ref({ t }, ref) {
  const id = useId();
  return <div ref={ref} id={id}>{t}</div>;
});
const Memo = memo(function Memo({ t }: { t: string }) {
  const id = useId();
  return <span id={id}>{t}</span>;
});
let thrown: Promise<void> | null = null;
function Suspends(): JSX.Element {
  thrown = thrown || new Promise<void>(() => {});
  throw thrown;
}
function Rows({ rows }: { rows: string[][] }) {
  return <table><tbody>{rows.map((r, i) => <tr key={i}>{r.map((c, j) => <td key={j} colSpan={j === 0 ? 2 : undefined}><Id label={c} /></td>)}</tr>)}</tbody></table>;
}

export default function K({ items, rows, text }: { items: string[]; rows: string[][]; text: string }) {
  return (
    <main className="k" style={{ marginTop: 4, lineHeight: 1.5, "--x": "<y>", WebkitTransition: "none", opacity: 0 } as any}>
      <Id label="top" />
      <TwoIds />
      <Ref t={text} />
      <Memo t="memo" />
      <ul>{items.map((s) => <li key={s}><Id label={s} />{s}<Memo t={s} /></li>)}</ul>
      {[[<Id key="a" label="nested-a" />, <Id key="b" label="nested-b" />], <Fragment key="f"><Id label="frag" /><TwoIds /></Fragment>]}
      <Rows rows={rows} />
      <Suspense fallback={<b>wait</b>}><Id label="in suspense" /><TwoIds /></Suspense>
      <section>{items.map((s) => <Suspense key={s} fallback={<i>loading {s}</i>}><Id label={"before " + s} />{s === items[1] ? <Suspends /> : <Memo t={s} />}</Suspense>)}</section>
      <p>{text} {1.5} {0} {-0} {1e21} {true} {false} {null} {undefined}</p>
      <a href={"/q?a=1&b=\"2\""} target="_blank" rel="noopener" download hidden={false} tabIndex={-1} data-x={true} aria-hidden={true} onClick={() => {}} unknownattr="u&v">link</a>
      <img src="/i.png" alt={text} width={10} height="20" loading="lazy" />
      <br /><hr />
      <div {...({ "inv@lid": "x", on: "short", onx: "y", ONCLICK: "z", Oncall: "w", foo: true, bar: false, "data-flag": false, "aria-x": true, "DATA-up": true, size: 0, rows: 2, rowSpan: "NaN", start: 3, span: -1, cols: "4", capture: "user", download: false, multiple: true, muted: false, suppressHydrationWarning: true, suppressContentEditableWarning: true, innerHTML: "no", "data-fn": () => 1, "data-sym": Symbol("s"), contentEditable: true, spellCheck: false, crossOrigin: "anonymous", acceptCharset: "utf-8", httpEquiv: "x", "xml:lang": "en", xlinkActuate: "onLoad", autoReverse: true, allowFullScreen: true, itemScope: true, formAction: "/f?a&b", style: undefined, "__proto__x": 1, "--custom": "v" } as any)}>attrs</div>
      <select defaultValue="b" name="s"><option value="a">A</option><option value="b">B &amp; C</option><option>{"plain"}</option></select>
      <select multiple value={["a", "c"]} onChange={() => {}}><option value="a">a</option><option value="b">b</option><option value="c">c</option></select>
      <textarea defaultValue={"\nfirst line & <b>"} />
      <input type="checkbox" defaultChecked readOnly value="v&" />
      <div dangerouslySetInnerHTML={{ __html: "<em>raw & kept</em>" }} />
      <pre>{"\nleading newline"}</pre>
      <my-element class="c" some-attr={"q\"uote"} onclick="x">custom</my-element>
      <svg viewBox="0 0 10 10" strokeWidth={2} xlinkHref="#a"><path d="M0 0L10 10" fillOpacity={0.5} /><foreignObject><div>in svg</div></foreignObject></svg>
      <title>{text}</title>
    </main>
  );
}
`

// TestPatchedReactRendersAsPublished renders kitchenSink with the patched
// bundle and with React as published, in goja both, and requires the same
// bytes.
func TestPatchedReactRendersAsPublished(t *testing.T) {
	dir := miniProject(t, map[string]string{"k": kitchenSink})
	props := `{"items":["one","two & <three>","drei — 💧","vier"],"rows":[["a","b","c"],["d","e"]],"text":"Tom & Jerry's <b>\"café\"</b> 🔥 \u2028"}`

	render := func(unpatched bool) string {
		t.Helper()
		src, err := buildServer(dir, []string{"k"}, false, unpatched)
		if err != nil {
			t.Fatal(err)
		}
		rt := goja.New()
		var nat *Natives
		if !unpatched {
			if nat, err = InstallNatives(rt); err != nil {
				t.Fatal(err)
			}
		}
		console := rt.NewObject()
		console.Set("error", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
		rt.Set("console", console)
		if _, err := rt.RunString(src); err != nil {
			t.Fatal(err)
		}
		fn, _ := goja.AssertFunction(rt.Get("SSR").ToObject(rt).Get("render"))
		// Twice: the second render finds what the first cached (the
		// attribute decisions).
		var html [2]string
		for i := range html {
			out, err := fn(goja.Undefined(), rt.ToValue("k"), rt.ToValue(props))
			if err != nil {
				t.Fatal(err)
			}
			if nat != nil {
				res, err := nat.Result(out)
				if err != nil {
					t.Fatal(err)
				}
				html[i] = res.HTML
				continue
			}
			var parts []string
			if err := rt.ExportTo(out, &parts); err != nil {
				t.Fatal(err)
			}
			html[i] = parts[0]
		}
		if html[0] != html[1] {
			t.Errorf("unpatched=%v: the second render differs from the first", unpatched)
		}
		return html[1]
	}
	want, got := render(true), render(false)
	if got != want {
		t.Errorf("patched React renders differently\npatched:   %s\npublished: %s", got, want)
	}
	for _, s := range []string{`id=":R`, `<!--$!-->`, `<!--$-->`, `&amp;`, `💧`, `<textarea>`, `selected=""`} {
		if !strings.Contains(want, s) {
			t.Errorf("the page does not exercise %s", s)
		}
	}
	// The page must also come out the same through the pool, which keeps
	// nothing in Go for this server entry.
	p, err := NewPool(mustBuildServer(t, dir), 1, 5*time.Second, quiet)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Render(context.Background(), "k", []byte(props))
	if err != nil {
		t.Fatal(err)
	}
	if res.HTML != want {
		t.Error("the pool's render differs")
	}
}

func mustBuildServer(t *testing.T, dir string) string {
	t.Helper()
	src, err := buildServer(dir, []string{"k"}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	return src
}
