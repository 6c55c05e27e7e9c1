// Every way this repository writes a component, and things that are not
// components, for TestMeasureReadsEveryForm. Line numbers matter: the
// test names each component's first line and length.
import { forwardRef, memo, Component } from "react";

export function Declared({ a }: { a: string }) {
  return <p>{a}</p>;
}

export const Arrow = ({ b }: { b: number }) => (
  <span>{b}</span>
);

const Memoised = memo(function Inner() {
  return <i />;
});

export const Forwarded = forwardRef<HTMLDivElement, {}>((props, ref) => {
  return <div ref={ref} />;
});

class Boundary extends Component<{}, {}> {
  render() { return null; }
}

// Not components: a hook, a helper that renders, a capitalised constant.
function useThing() { return 1; }
const renderRow = (x: string) => <td>{x}</td>;
const LIMIT = 400;

export default function () {
  return <>{LIMIT}{useThing()}{renderRow("x")}<Memoised /><Boundary /></>;
}

// Components as an object's members (a registry of islands); a member
// that renders nothing is not one.
export const registry = {
  Member: () => <b />,
  Method() { return <u />; },
  Plain: () => "text",
};
