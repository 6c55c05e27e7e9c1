// Package tsgen writes TypeScript interfaces for Go types as
// encoding/json sends them, so the admin app reads the server's answers,
// and the public pages their props, with types generated from one source
// instead of hand copies. The registries (the admin API's answers, the
// pages' props) and the command that writes admin/api.gen.ts and
// components/props.gen.ts are in cmd/tsgen; a test there fails when a
// committed file differs from what the Go types generate.
//
// The mapping follows encoding/json: a field's JSON name is its tag's
// name, else its Go name; "-" and unexported fields are skipped;
// embedded structs without a name are flattened; `omitempty` makes a
// field optional; a pointer may be null; a `tstype:"..."` tag gives a
// field's TypeScript where it is narrower than the Go type (a string
// that takes a few values: `tstype:"'ok' | 'failed'"`). A slice is `T[]`: handlers send
// an empty list as `[]` (a nil slice would be null). A type with its own
// MarshalJSON, and any interface (`any`), must be named in Overrides:
// the generator refuses to guess.
package tsgen

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Type is one Go type to write as a TypeScript interface named Name.
type Type struct {
	Name string
	Go   reflect.Type
}

// Of is a Type for the Go type of v (a zero value: T{}).
func Of(name string, v any) Type { return Type{Name: name, Go: reflect.TypeOf(v)} }

// Generator writes the interfaces. Overrides gives the TypeScript for a
// Go type that JSON encodes its own way.
type Generator struct {
	Overrides map[reflect.Type]string

	names map[reflect.Type]string // Go type -> TS interface name
	taken map[string]reflect.Type // TS name -> Go type
	queue []Type
}

var (
	timeType      = reflect.TypeOf(time.Time{})
	rawType       = reflect.TypeOf(json.RawMessage(nil))
	marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textType      = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// Generate returns the TypeScript source for types, in their order,
// followed by the named struct types they reach that are not listed
// (under their Go names), in the order they were reached.
func (g *Generator) Generate(types []Type) (string, error) {
	g.names, g.taken, g.queue = map[reflect.Type]string{}, map[string]reflect.Type{}, nil
	for _, t := range types {
		if t.Go.Kind() != reflect.Struct {
			return "", fmt.Errorf("%s: %s is not a struct", t.Name, t.Go)
		}
		if err := g.name(t.Go, t.Name); err != nil {
			return "", err
		}
	}
	g.queue = append(g.queue, types...)
	var b strings.Builder
	for i := 0; i < len(g.queue); i++ {
		t := g.queue[i]
		body, err := g.fields(t.Go, t.Name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "/** %s */\nexport interface %s {\n%s}\n\n", t.Go.String(), t.Name, body)
	}
	return b.String(), nil
}

// name gives Go type t the TS name n, refusing two Go types one name.
func (g *Generator) name(t reflect.Type, n string) error {
	if other, ok := g.taken[n]; ok && other != t {
		return fmt.Errorf("two Go types are named %s: %s and %s; list one of them with its own name", n, other, t)
	}
	if prev, ok := g.names[t]; ok && prev != n {
		return fmt.Errorf("%s is listed as %s and as %s", t, prev, n)
	}
	g.names[t], g.taken[n] = n, t
	return nil
}

type field struct {
	name, ts string
	optional bool
	depth    int
}

// fields is the body of t's interface.
func (g *Generator) fields(t reflect.Type, owner string) (string, error) {
	var fs []field
	if err := g.collect(t, owner, 0, &fs); err != nil {
		return "", err
	}
	// encoding/json: of several fields with one name, the shallowest wins.
	best := map[string]field{}
	var order []string
	for _, f := range fs {
		cur, ok := best[f.name]
		if !ok {
			order = append(order, f.name)
		}
		if !ok || f.depth < cur.depth {
			best[f.name] = f
		}
	}
	var b strings.Builder
	for _, n := range order {
		f := best[n]
		opt := ""
		if f.optional {
			opt = "?"
		}
		fmt.Fprintf(&b, "  %s%s: %s;\n", quoteName(f.name), opt, f.ts)
	}
	return b.String(), nil
}

func (g *Generator) collect(t reflect.Type, owner string, depth int, out *[]field) error {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct && !g.custom(et) {
				if err := g.collect(et, owner, depth+1, out); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ts, err := "", error(nil)
		if tt := f.Tag.Get("tstype"); tt != "" {
			ts = tt // the field's TypeScript, narrower than its Go type
		} else if ts, err = g.ts(ft, owner+"."+name); err != nil {
			return err
		}
		if hasOpt(opts, "string") {
			ts = "string"
		}
		optional := hasOpt(opts, "omitempty") || hasOpt(opts, "omitzero")
		if optional && ft.Kind() == reflect.Pointer {
			ts = strings.TrimSuffix(ts, " | null")
		}
		*out = append(*out, field{name: name, ts: ts, optional: optional, depth: depth})
	}
	return nil
}

func hasOpt(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// custom reports whether t encodes itself.
func (g *Generator) custom(t reflect.Type) bool {
	if _, ok := g.Overrides[t]; ok {
		return true
	}
	return t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) ||
		t.Implements(textType) || reflect.PointerTo(t).Implements(textType)
}

// ts is the TypeScript for Go type t; where names the field, for errors.
func (g *Generator) ts(t reflect.Type, where string) (string, error) {
	if o, ok := g.Overrides[t]; ok {
		return o, nil
	}
	switch t {
	case timeType:
		return "string", nil
	case rawType:
		return "unknown", nil
	}
	if t.Kind() != reflect.Pointer && g.custom(t) {
		if t.Implements(textType) || reflect.PointerTo(t).Implements(textType) {
			if !(t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType)) {
				return "string", nil
			}
		}
		return "", fmt.Errorf("%s: %s has its own MarshalJSON; name its TypeScript in Overrides", where, t)
	}
	switch t.Kind() {
	case reflect.String:
		return "string", nil
	case reflect.Bool:
		return "boolean", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number", nil
	case reflect.Pointer:
		inner, err := g.ts(t.Elem(), where)
		if err != nil {
			return "", err
		}
		return inner + " | null", nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return "string", nil // base64
		}
		inner, err := g.ts(t.Elem(), where)
		if err != nil {
			return "", err
		}
		if strings.ContainsAny(inner, " |") {
			inner = "(" + inner + ")"
		}
		return inner + "[]", nil
	case reflect.Map:
		inner, err := g.ts(t.Elem(), where)
		if err != nil {
			return "", err
		}
		return "Record<string, " + inner + ">", nil
	case reflect.Struct:
		if n, ok := g.names[t]; ok {
			return n, nil
		}
		if t.Name() == "" {
			body, err := g.fields(t, where)
			if err != nil {
				return "", err
			}
			return "{\n" + indent(body) + "  }", nil
		}
		n := t.Name()
		if err := g.name(t, n); err != nil {
			return "", fmt.Errorf("%s: %w", where, err)
		}
		g.queue = append(g.queue, Type{Name: n, Go: t})
		return n, nil
	case reflect.Interface:
		return "", fmt.Errorf("%s: %s is an interface: the wire type must be named (or listed in Overrides)", where, t)
	}
	return "", fmt.Errorf("%s: %s cannot be sent as JSON", where, t)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// quoteName quotes a JSON name that is not a TypeScript identifier.
func quoteName(n string) string {
	for i, r := range n {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Sprintf("%q", n)
		}
	}
	return n
}

// Names returns the TS names of the listed types, sorted (for reports).
func Names(types []Type) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = t.Name
	}
	sort.Strings(out)
	return out
}
