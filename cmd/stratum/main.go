// Command stratum serves Strapi content-types as REST and GraphQL APIs.
package main

import (
	"fmt"
	"os"
)

const usage = `stratum: a content API engine that serves Strapi schema files

Usage:
  stratum serve [--dir DIR] [--host H] [--port P]   run the server (DIR defaults to .)
  stratum new DIR [--template blog]                 scaffold a project folder
  stratum seed [--dir DIR] [--articles N]           fill a project with example documents
  stratum types export [--dir DIR] [--out DIR]      write the types defined through the admin API as files
  stratum types ts [--dir DIR]                      print TypeScript definitions of every type
  stratum openapi [--dir DIR]                       print the OpenAPI 3.1 document of the REST API
  stratum check [--dir DIR]                         what of a (Strapi) project runs, what is skipped and why
  stratum health [--dir DIR] [--url URL]            exit 0 when the project's server answers /_health with 200
  stratum import strapi --from STRAPI_DATABASE_URL [--dir DIR] [--uploads DIR]
                                                    import a Strapi 5 database (PostgreSQL or SQLite)
  stratum export --file FILE [--dir DIR]            write a backup of the project (database and local media)
  stratum import --file FILE [--dir DIR] [--force]  restore a backup into a project (empty unless --force)
  stratum admin create --email E --password P [--dir DIR]
                                                    create an admin of the admin API
  stratum token create --name N --type read-only|full-access|custom
        [--permission ACTION]... [--lifespan 7d|30d|90d] [--dir DIR]
                                                    issue an API token (printed once)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "new":
		err = scaffold(os.Args[2:])
	case "seed":
		err = seed(os.Args[2:])
	case "admin":
		err = adminCmd(os.Args[2:])
	case "token":
		err = tokenCmd(os.Args[2:], os.Stdout)
	case "types":
		err = typesCmd(os.Args[2:])
	case "health":
		err = health(os.Args[2:])
	case "check":
		err = checkCmd(os.Args[2:], os.Stdout)
	case "import":
		err = importCmd(os.Args[2:], os.Stdout)
	case "export":
		err = exportCmd(os.Args[2:], os.Stdout)
	case "openapi":
		err = openAPICmd(os.Args[2:], os.Stdout)
	case "-h", "--help", "help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "stratum: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "stratum:", err)
		os.Exit(1)
	}
}
