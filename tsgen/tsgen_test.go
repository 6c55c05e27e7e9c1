package tsgen

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type inner struct {
	Label string `json:"label"`
}

type base struct {
	ID      int64  `json:"id"`
	Shadow  string `json:"shadow"`
	private string //nolint:unused // skipped by JSON
}

type custom struct{ v int }

func (c custom) MarshalJSON() ([]byte, error) { return json.Marshal(c.v) }

type text struct{}

func (text) MarshalText() ([]byte, error) { return []byte("x"), nil }

type answer struct {
	base
	Shadow   bool              `json:"shadow"` // shallower: wins over base's
	Name     string            `json:"name"`
	Untagged int               //
	Skipped  string            `json:"-"`
	When     time.Time         `json:"when"`
	Maybe    *inner            `json:"maybe"`
	Gone     *inner            `json:"gone,omitempty"`
	Items    []inner           `json:"items"`
	Ptrs     []*inner          `json:"ptrs"`
	ByKey    map[string]int    `json:"byKey"`
	Raw      json.RawMessage   `json:"raw"`
	Bytes    []byte            `json:"bytes"`
	Count    int               `json:"count,string"`
	Extra    string            `json:"extra,omitempty"`
	Anon     struct{ A bool }  `json:"anon"`
	Text     text              `json:"text"`
	Dash     string            `json:"x-y"`
	Nested   map[string][]bool `json:"nested"`
	Outcome  string            `json:"outcome" tstype:"'ok' | 'failed'"`
}

func TestGenerate(t *testing.T) {
	g := &Generator{}
	got, err := g.Generate([]Type{Of("Answer", answer{})})
	if err != nil {
		t.Fatal(err)
	}
	want := `/** tsgen.answer */
export interface Answer {
  id: number;
  shadow: boolean;
  name: string;
  Untagged: number;
  when: string;
  maybe: inner | null;
  gone?: inner;
  items: inner[];
  ptrs: (inner | null)[];
  byKey: Record<string, number>;
  raw: unknown;
  bytes: string;
  count: string;
  extra?: string;
  anon: {
    A: boolean;
  };
  text: string;
  "x-y": string;
  nested: Record<string, boolean[]>;
  outcome: 'ok' | 'failed';
}

/** tsgen.inner */
export interface inner {
  label: string;
}

`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want, +got)\n%s", diff)
	}
}

// A listed name wins over the Go name of a type reached through a field.
func TestListedNameWins(t *testing.T) {
	type holder struct {
		I inner `json:"i"`
	}
	got, err := (&Generator{}).Generate([]Type{Of("Holder", holder{}), Of("Inner", inner{})})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "  i: Inner;") || strings.Contains(got, "interface inner") {
		t.Errorf("the field does not use the listed name:\n%s", got)
	}
}

// The generator refuses to guess: any, a type with its own MarshalJSON
// and two Go types under one name are errors naming the field or type.
func TestRefusals(t *testing.T) {
	type withAny struct {
		Leads any `json:"leads"`
	}
	type withCustom struct {
		C custom `json:"c"`
	}
	type other struct {
		Label int `json:"label"`
	}
	for _, c := range []struct {
		name  string
		types []Type
		want  string
	}{
		{"any", []Type{Of("A", withAny{})}, "A.leads: interface {} is an interface"},
		{"marshaler", []Type{Of("C", withCustom{})}, "C.c: tsgen.custom has its own MarshalJSON"},
		{"two types one name", []Type{Of("Same", inner{}), Of("Same", other{})}, "two Go types are named Same"},
		{"not a struct", []Type{{Name: "S", Go: reflect.TypeOf("")}}, "is not a struct"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := (&Generator{}).Generate(c.types)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
	// An override names the TypeScript of a self-encoding type.
	type withCustom2 struct {
		C custom `json:"c"`
	}
	got, err := (&Generator{Overrides: map[reflect.Type]string{reflect.TypeOf(custom{}): "number"}}).Generate([]Type{Of("C", withCustom2{})})
	if err != nil || !strings.Contains(got, "  c: number;") {
		t.Errorf("override: %v\n%s", err, got)
	}
}
