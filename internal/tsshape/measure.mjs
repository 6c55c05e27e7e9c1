// measure.mjs prints, as JSON, the size of every TypeScript file it is
// given and of every React component in it, read with the TypeScript
// compiler's own parser (no pattern matching: a component written any
// way TypeScript accepts is found). Usage: node measure.mjs REPO BASE
// FILE... (REPO has the typescript package; each FILE is relative to
// BASE). The Go test in this folder runs it and judges.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const [repo, base, ...files] = process.argv.slice(2);
const root = resolve(base);
// typescript is one of the repository's dev dependencies (package.json).
const ts = createRequire(join(resolve(repo), "package.json"))("typescript");

/** isPascal: React treats a capitalised name as a component. */
const isPascal = (name) => /^[A-Z]/.test(name);

/** hasJSX: the node renders (a default export's anonymous function). */
function hasJSX(node) {
  let found = false;
  const walk = (n) => {
    if (found) return;
    if (ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isJsxFragment(n)) { found = true; return; }
    ts.forEachChild(n, walk);
  };
  walk(node);
  return found;
}

/** unwrap finds the function inside memo(...), forwardRef(...),
 * React.memo(...) or a type assertion, else returns the node. */
function unwrap(n) {
  while (n) {
    if (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression?.(n)) { n = n.expression; continue; }
    if (ts.isCallExpression(n) && n.arguments.length > 0) {
      const callee = n.expression.getText();
      if (/(^|\.)(memo|forwardRef)$/.test(callee)) { n = n.arguments[0]; continue; }
    }
    return n;
  }
  return n;
}

const isFunction = (n) => n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n));

function measure(rel) {
  const text = readFileSync(join(root, rel), "utf8");
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, rel.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const components = [];
  const add = (name, node) => {
    const start = lineOf(node.getStart(sf));
    const end = lineOf(node.getEnd());
    components.push({ name, line: start, lines: end - start + 1 });
  };
  const visit = (n) => {
    if (ts.isFunctionDeclaration(n) && n.body) {
      if (n.name ? isPascal(n.name.text) : hasJSX(n)) add(n.name ? n.name.text : "default", n);
    } else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && isPascal(n.name.text) && isFunction(unwrap(n.initializer))) {
      add(n.name.text, unwrap(n.initializer));
    } else if (ts.isExportAssignment(n) && isFunction(unwrap(n.expression)) && hasJSX(n.expression)) {
      add("default", unwrap(n.expression));
    } else if ((ts.isPropertyAssignment(n) || ts.isMethodDeclaration(n)) && ts.isIdentifier(n.name) && isPascal(n.name.text)) {
      // A member of an object (a registry of components) that renders.
      const fn = ts.isMethodDeclaration(n) ? n : unwrap(n.initializer);
      if ((fn === n || isFunction(fn)) && hasJSX(fn)) add(n.name.text, fn);
    } else if (ts.isClassLike(n) && n.heritageClauses?.some((h) => h.types.some((ty) => /(^|\.)(Pure)?Component$/.test(ty.expression.getText(sf))))) {
      add(n.name ? n.name.text : "default", n);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  // Lines as an editor numbers them: a final newline ends the last line.
  const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return { path: rel, lines, parseErrors: sf.parseDiagnostics.length, components };
}

process.stdout.write(JSON.stringify(files.map(measure)));
