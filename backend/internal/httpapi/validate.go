package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/go-chi/chi/v5"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/gen/api"
)

// validator checks every request against openapi.yaml before a handler runs, so handlers
// only see well-formed input: first the decoding step (checkDecoding), then the contract's
// schemas. Refusals take the form the operation's contract documents (see refusalFor).
type validator struct {
	// ops finds the operation of a request chi has routed, by its method and route pattern.
	ops map[opKey]operation
	// router finds it by matching the path against every path of the contract in turn: for
	// a path chi routes on another form than the contract's router would (see findRoute).
	router routers.Router
	opts   openapi3filter.Options
	// redirect answers a refused request of an operation whose only answer is a redirect.
	redirect func(http.ResponseWriter)
}

// opKey names an operation as chi routes it: the method and the path template, whose
// {param} syntax the contract and chi share (the generated chi server registers these paths).
type opKey struct{ method, pattern string }

type operation struct {
	route   *routers.Route
	refusal refusal
}

func newValidator(spec *openapi3.T, redirect func(http.ResponseWriter)) (*validator, error) {
	// The contract's servers entry ("/") is for documentation; routing ignores the host.
	routed := *spec
	routed.Servers = nil
	router, err := gorillamux.NewRouter(&routed)
	if err != nil {
		return nil, fmt.Errorf("route openapi spec: %w", err)
	}
	v := &validator{ops: map[opKey]operation{}, router: router, opts: validationOptions(), redirect: redirect}
	for _, path := range routed.Paths.InMatchingOrder() {
		item := routed.Paths.Value(path)
		for method, op := range item.Operations() {
			v.ops[opKey{method, path}] = operation{
				route:   &routers.Route{Spec: &routed, Path: path, PathItem: item, Method: method, Operation: op},
				refusal: v.refusalFor(op),
			}
		}
	}
	return v, nil
}

// findRoute returns the operation of r, its path parameters and how it refuses. The
// validator runs inside chi's route group, so chi has matched the route already: its
// pattern names the operation and its URL parameters are the path's. The contract's router
// matches the escaped path (EscapedPath), chi the raw path if there is one, else the
// decoded one; a path whose forms differ goes to the contract's router, so that its answer
// (a 404, or parameters left escaped) stays what it was; so does a path with an empty
// parameter, which chi matches and the contract's router does not.
func (v *validator) findRoute(r *http.Request) (*routers.Route, map[string]string, refusal, error) {
	if route, params, refusal, ok := v.chiRoute(r); ok {
		return route, params, refusal, nil
	}
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		return nil, nil, nil, err
	}
	return route, params, v.refusalFor(route.Operation), nil
}

// chiRoute finds the operation chi has routed r to, if findRoute may trust chi for r.
func (v *validator) chiRoute(r *http.Request) (*routers.Route, map[string]string, refusal, bool) {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil || r.URL.RawPath != "" || r.URL.EscapedPath() != r.URL.Path {
		return nil, nil, nil, false
	}
	op, ok := v.ops[opKey{r.Method, rctx.RoutePattern()}]
	if !ok || slices.Contains(rctx.URLParams.Values, "") {
		return nil, nil, nil, false
	}
	var params map[string]string
	if n := len(rctx.URLParams.Keys); n > 0 {
		params = make(map[string]string, n)
		for i, k := range rctx.URLParams.Keys {
			params[k] = rctx.URLParams.Values[i]
		}
	}
	return op.route, params, op.refusal, true
}

// validationOptions are the options of every check against the contract, the server's and
// the tests' response checks alike.
func validationOptions() openapi3filter.Options {
	return openapi3filter.Options{
		MultiError:         true,
		AuthenticationFunc: requireAuthentication,
		// JSON Schema's uuid is the RFC 4122 text form, whatever the version digit.
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(uuidFormat)),
			openapi3.WithStringFormatValidator("email", emailFormat{}),
			openapi3.WithStringFormatValidator(formatOneLine, textFormat{oneLine: true}),
			openapi3.WithStringFormatValidator(formatMultiLine, textFormat{}),
		},
	}
}

const uuidFormat = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`

// emailFormat is the contract's "email": the account rules' plain address, surrounding
// whitespace ignored (it is trimmed before use).
type emailFormat struct{}

func (emailFormat) Validate(v string) error {
	if !account.ValidEmail(strings.TrimSpace(v)) {
		return errors.New("not a valid email address")
	}
	return nil
}

// The contract's formats of free text (its description states them).
const (
	formatOneLine   = "one-line"
	formatMultiLine = "multi-line"
	msgOneLine      = "This must be one line, without control characters."
	msgControlChar  = "This text contains a control character that isn't allowed."
)

// textFormat is the contract's one-line or multi-line text. Both refuse the C0 and C1
// control characters; multi-line text keeps tab, line feed and carriage return, and one-line
// text refuses them and the Unicode line and paragraph separators too.
type textFormat struct{ oneLine bool }

func (f textFormat) Validate(v string) error {
	for _, r := range v {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			if f.oneLine {
				return errors.New("not one line")
			}
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			return errors.New("holds a control character")
		case f.oneLine && (r == '\u2028' || r == '\u2029'):
			return errors.New("not one line")
		}
	}
	return nil
}

func (v *validator) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, refuseWith, err := v.findRoute(r)
		if err != nil {
			writeRequestError(w, r, err)
			return
		}
		if !limitBody(w, r, route) {
			return
		}
		r, st := requestStateOf(r)
		st.refusal = refuseWith
		query := parseQuery(r) // once, for both checks
		problems, err := checkDecoding(r, query, params, route.Operation.RequestBody != nil)
		if err != nil {
			writeRequestError(w, r, err)
			return
		}
		opts := v.opts
		opts.ExcludeRequestBody = problems.badBody
		if problems.badBody {
			// Refused whatever else is wrong: kin-openapi's security check would copy it again.
			r.Body = http.NoBody
		}
		err = openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
			Request: r, PathParams: params, QueryParams: query, Route: route, Options: &opts,
		})
		if err == nil && len(problems.fields) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		if err != nil && !isFieldError(err) {
			writeRequestError(w, r, err)
			return
		}
		fields := problems.fields
		if fields == nil {
			fields = map[string]string{}
		}
		if err != nil {
			for f, msg := range fieldErrors(err) {
				setOnce(fields, f, msg)
			}
		}
		refuse(w, r, fields)
	})
}

// requireAuthentication is called by the validator for operations that declare bearer
// security. The auth middleware has already verified the token and put the caller in the
// request context; here we only check that it did.
func requireAuthentication(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if _, ok := CallerFrom(in.RequestValidationInput.Request.Context()); !ok {
		return errors.New("no valid bearer token")
	}
	return nil
}

// isFieldError reports whether err is only about the request's fields: not a missing
// caller (401, which comes before any field problem) nor an oversized body (413).
func isFieldError(err error) bool {
	var (
		mbe *http.MaxBytesError
		sre *openapi3filter.SecurityRequirementsError
	)
	return !errors.As(err, &mbe) && !errors.As(err, &sre) &&
		!errors.Is(err, routers.ErrMethodNotAllowed) && !errors.Is(err, routers.ErrPathNotFound)
}

// writeRequestError answers a request refused for something other than its fields.
func writeRequestError(w http.ResponseWriter, r *http.Request, err error) {
	var (
		mbe *http.MaxBytesError
		sre *openapi3filter.SecurityRequirementsError
	)
	switch {
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", msgTooLarge)
	case errors.Is(err, routers.ErrMethodNotAllowed):
		writeError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "This method is not allowed here.")
	case errors.Is(err, routers.ErrPathNotFound):
		writeError(w, http.StatusNotFound, "NOT_FOUND", msgNotFound)
	case errors.As(err, &sre):
		writeError(w, http.StatusUnauthorized, "UNAUTHORIZED", msgUnauthorized)
	default:
		writeDomainError(w, r, fmt.Errorf("validate request: %w", err))
	}
}

// fieldErrors flattens kin-openapi's errors into field → human message.
func fieldErrors(err error) map[string]string {
	out := map[string]string{}
	collectFieldErrors(err, "", out)
	if len(out) == 0 {
		out["request"] = "The request is not valid."
	}
	return out
}

func collectFieldErrors(err error, param string, out map[string]string) {
	var me openapi3.MultiError
	if errors.As(err, &me) && !isSingle(err) {
		for _, e := range me {
			collectFieldErrors(e, param, out)
		}
		return
	}
	var re *openapi3filter.RequestError
	if errors.As(err, &re) {
		if re.Parameter != nil {
			param = re.Parameter.Name
		}
		if param == "" && re.RequestBody != nil && !hasSchemaError(re.Err) {
			// The body as a whole: missing, or of a content type the operation does not take.
			msg := reasonText(re.Reason)
			if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) {
				msg = "A request body is required."
			}
			setOnce(out, bodyField, msg)
			return
		}
		if re.Err != nil {
			collectFieldErrors(re.Err, param, out)
			return
		}
		if param != "" {
			setOnce(out, param, reasonText(re.Reason))
		}
		return
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		field, msg := schemaErrorText(se)
		if param != "" {
			field = strings.TrimPrefix(param+"."+field, ".")
			field = strings.TrimSuffix(field, ".")
		}
		if field == "" {
			field = bodyField // the body as a whole: parameters always have a name
		}
		setOnce(out, field, msg)
		return
	}
	var pe *openapi3filter.ParseError
	if errors.As(err, &pe) && param != "" {
		setOnce(out, param, "This value is not in the expected format.")
		return
	}
	switch {
	case param == "":
	case errors.Is(err, openapi3filter.ErrInvalidRequired) || errors.Is(err, openapi3filter.ErrInvalidEmptyValue):
		setOnce(out, param, "This field is required.")
	default:
		setOnce(out, param, "This value is not valid.")
	}
}

func hasSchemaError(err error) bool {
	var se *openapi3.SchemaError
	return errors.As(err, &se)
}

// isSingle reports whether err is itself a RequestError or SchemaError (which may wrap a
// MultiError that we want to walk with the parameter name kept).
func isSingle(err error) bool {
	switch err.(type) {
	case *openapi3filter.RequestError, *openapi3.SchemaError:
		return true
	}
	return false
}

func setOnce(out map[string]string, field, msg string) {
	if _, ok := out[field]; !ok {
		out[field] = msg
	}
}

// nonBlankPattern is the contract's pattern for text that must not be blank: at least one
// character other than white space.
const nonBlankPattern = `\S`

var quotedName = regexp.MustCompile(`property "([^"]+)"`)

// schemaErrorText turns one schema failure into a field name and a plain-language message.
func schemaErrorText(se *openapi3.SchemaError) (string, string) {
	field := strings.Join(se.JSONPointer(), ".")
	s := se.Schema
	switch se.SchemaField {
	case "required":
		return field, "This field is required."
	case "properties", "additionalProperties":
		if m := quotedName.FindStringSubmatch(se.Reason); m != nil {
			return strings.TrimPrefix(field+"."+m[1], "."), "This field is not accepted here."
		}
	case "maxLength":
		if s != nil && s.MaxLength != nil {
			return field, fmt.Sprintf("Must be at most %d characters.", *s.MaxLength)
		}
	case "minLength":
		if s != nil && s.MinLength <= 1 {
			return field, "This field is required."
		}
		return field, fmt.Sprintf("Must be at least %d characters.", s.MinLength)
	case "enum":
		if s != nil && len(s.Enum) > 0 {
			vals := make([]string, 0, len(s.Enum))
			for _, v := range s.Enum {
				vals = append(vals, fmt.Sprint(v))
			}
			return field, "Must be one of: " + strings.Join(vals, ", ") + "."
		}
	case "type":
		if s != nil && s.Type != nil && len(*s.Type) > 0 {
			return field, fmt.Sprintf("Must be %s.", article((*s.Type)[0]))
		}
	case "nullable":
		return field, "This field cannot be empty."
	case "format":
		switch {
		case s != nil && s.Format == "uuid":
			return field, "Must be a valid id."
		case s != nil && s.Format == "email":
			return field, "Please enter a valid email address."
		case s != nil && s.Format == formatOneLine:
			return field, msgOneLine
		case s != nil && s.Format == formatMultiLine:
			return field, msgControlChar
		}
	case "pattern":
		if s != nil && s.Pattern == nonBlankPattern {
			return field, "This field is required."
		}
		return field, "This value is not in the expected format."
	case "minimum", "maximum":
		if s != nil && s.Min != nil && s.Max != nil {
			return field, fmt.Sprintf("Must be a number from %g to %g.", *s.Min, *s.Max)
		}
	case "minProperties", "maxProperties":
		return field, "Change one field at a time."
	}
	return field, reasonText(se.Reason)
}

func article(typ string) string {
	switch typ {
	case "integer":
		return "a whole number"
	case "array", "object":
		return "an " + typ
	default:
		return "a " + typ
	}
}

// reasonText capitalises kin-openapi's reason into a sentence.
func reasonText(reason string) string {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return "This value is not valid."
	}
	reason = strings.ToUpper(reason[:1]) + reason[1:]
	if !strings.HasSuffix(reason, ".") {
		reason += "."
	}
	return reason
}

// bindError answers a parameter that the generated chi wrapper could not bind.
func bindError(w http.ResponseWriter, r *http.Request, err error) {
	var (
		inv *api.InvalidParamFormatError
		req *api.RequiredParamError
		hdr *api.RequiredHeaderError
		tm  *api.TooManyValuesForParamError
	)
	switch {
	case errors.As(err, &inv):
		refuse(w, r, map[string]string{inv.ParamName: "This value is not in the expected format."})
	case errors.As(err, &req):
		refuse(w, r, map[string]string{req.ParamName: "This field is required."})
	case errors.As(err, &hdr):
		refuse(w, r, map[string]string{hdr.ParamName: "This header is required."})
	case errors.As(err, &tm):
		refuse(w, r, map[string]string{tm.ParamName: "Give this value once."})
	default:
		refuse(w, r, map[string]string{"request": "The request is not valid."})
	}
}
