// Package api is generated from openapi.yaml by oapi-codegen; do not edit api.gen.go by hand.
package api

//go:generate go tool oapi-codegen -config config.yaml ../../openapi.yaml
