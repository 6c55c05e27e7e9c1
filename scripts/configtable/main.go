// Command configtable prints docs/configuration.md's table from
// config.Vars, so the two never drift apart.
package main

import (
	"fmt"

	"github.com/atlanta-restoration/site/config"
)

func main() {
	fmt.Println("| Variable | Default | Meaning |")
	fmt.Println("|---|---|---|")
	for _, v := range config.Vars {
		d := v.Default
		if d == "" {
			d = "(empty)"
		}
		fmt.Printf("| `%s` | `%s` | %s |\n", v.Name, d, v.Help)
	}
}
