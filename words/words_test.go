package words

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 pages"}, {1, "1 page"}, {2, "2 pages"}, {-1, "-1 pages"}} {
		if got := Count(c.n, "page", "pages"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
