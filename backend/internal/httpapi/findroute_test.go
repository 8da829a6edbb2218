package httpapi

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/routers"
	"github.com/go-chi/chi/v5"

	"github.com/percolate/percolate/gen/api"
)

// The validator finds a request's operation from chi's route (findRoute), not by matching
// the path against every path of the contract: every operation of openapi.yaml is found so,
// and for every path, odd ones included, its answer is the contract router's.
func TestFindRouteIsTheContractRoutersAnswer(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	v, err := newValidator(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	type found struct {
		route  *routers.Route
		params map[string]string
		fast   bool
		err    error
	}
	var got found
	r := chi.NewRouter()
	r.Group(func(g chi.Router) {
		g.Use(func(http.Handler) http.Handler {
			return http.HandlerFunc(func(_ http.ResponseWriter, req *http.Request) {
				_, _, _, fast := v.chiRoute(req)
				route, params, _, err := v.findRoute(req)
				got = found{route, params, fast, err}
			})
		})
		api.HandlerWithOptions(api.NewStrictHandler(&Server{}, nil), api.ChiServerOptions{BaseRouter: g})
	})

	values := []string{"5b0e3c1a-8a7e-4a3c-9a55-0d7c9c3f2b11", "x", "", "a%2Fb", "a%20b", "%C3%A9", "a+b", "a;b", "~a.b_c-d"}
	ops := 0
	for _, path := range spec.Paths.InMatchingOrder() {
		for method, op := range spec.Paths.Value(path).Operations() {
			ops++
			for i, val := range values {
				target := path
				for strings.Contains(target, "{") {
					open, end := strings.Index(target, "{"), strings.Index(target, "}")
					target = target[:open] + val + target[end+1:]
				}
				if i > 0 && target == path {
					continue // no parameters: one case is enough
				}
				target += "?q=1"
				got = found{}
				r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, target, nil))
				if got.route == nil && got.err == nil {
					continue // chi did not route it here (an empty parameter at the end): not the validator's
				}
				req := httptest.NewRequest(method, target, nil)
				wantRoute, wantParams, wantErr := v.router.FindRoute(req)
				if got.err != wantErr {
					t.Errorf("%s %s: error %v, the contract's router %v", method, target, got.err, wantErr)
					continue
				}
				if wantErr != nil {
					continue
				}
				if got.route.Operation != op || wantRoute.Operation != op || got.route.Path != wantRoute.Path || got.route.Method != wantRoute.Method {
					t.Errorf("%s %s: found %s %s, the contract's router %s %s, want %s %s",
						method, target, got.route.Method, got.route.Path, wantRoute.Method, wantRoute.Path, method, path)
				}
				if len(got.params)+len(wantParams) > 0 && !reflect.DeepEqual(got.params, wantParams) {
					t.Errorf("%s %s: parameters %v, the contract's router %v", method, target, got.params, wantParams)
				}
				if i == 0 && !got.fast {
					t.Errorf("%s %s: not found from chi's route", method, target)
				}
			}
		}
	}
	if ops == 0 || len(v.ops) != ops {
		t.Errorf("%d operations in the contract, %d found from chi's routes", ops, len(v.ops))
	}
}
