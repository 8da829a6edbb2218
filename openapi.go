// Package percolate holds what belongs to the repository root: the API contract.
package percolate

import _ "embed"

// OpenAPIYAML is openapi.yaml, the contract, served as written at /api/openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte
