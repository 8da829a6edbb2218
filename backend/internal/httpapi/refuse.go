package httpapi

// How a request refused for its fields is answered. The contract decides, per operation:
// a 400 documented as JSON gets the validation error with details, a 400 documented only as
// text/plain gets the field's message as text (its client shows a text body as it is), and
// an operation whose only answer is a redirect (third-party sign-in) sends the browser back
// to /login with a message. Every refusal path (the decoding step, the schema check, the
// parameter binding, the body decoding) goes through refuse, so none can answer otherwise.

import (
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/percolate/percolate/backend/internal/account"
)

// refusal writes the answer to a request whose fields (name → message) were refused.
type refusal func(w http.ResponseWriter, fields map[string]string)

// refusalFor reads the form of op's refusal from the contract.
func (v *validator) refusalFor(op *openapi3.Operation) refusal {
	if op == nil || op.Responses == nil {
		return refuseJSON
	}
	if bad := op.Responses.Value("400"); bad != nil && bad.Value != nil {
		if bad.Value.Content.Get("application/json") == nil && bad.Value.Content.Get("text/plain") != nil {
			return refuseText
		}
		return refuseJSON
	}
	if op.Responses.Value("302") != nil && v.redirect != nil {
		return func(w http.ResponseWriter, _ map[string]string) { v.redirect(w) }
	}
	return refuseJSON
}

// refuse answers a request whose fields were refused, in its operation's documented form.
func refuse(w http.ResponseWriter, r *http.Request, fields map[string]string) {
	if st := stateFrom(r.Context()); st != nil && st.refusal != nil {
		st.refusal(w, fields)
		return
	}
	refuseJSON(w, fields)
}

func refuseJSON(w http.ResponseWriter, fields map[string]string) {
	writeValidation(w, "", fields)
}

// refuseText answers with one field's message (the first by name, so the answer does not
// change from one run to the next).
func refuseText(w http.ResponseWriter, fields map[string]string) {
	msg := msgValidation
	if len(fields) > 0 {
		names := make([]string, 0, len(fields))
		for f := range fields {
			names = append(names, f)
		}
		slices.Sort(names)
		msg = fields[names[0]]
	}
	_ = textRefusal{status: http.StatusBadRequest, message: msg}.visit(w)
}

// oidcRefusal sends the browser back to the sign-in page, as the callback does for any
// failure.
func (s *Server) oidcRefusal(w http.ResponseWriter) {
	_ = s.loginError(&account.OIDCError{Code: account.OIDCFailed}).visit(w)
}
