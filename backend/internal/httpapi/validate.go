package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	nethttpmiddleware "github.com/oapi-codegen/nethttp-middleware"

	"github.com/percolate/percolate/gen/api"
)

// requestValidator checks every request against openapi.yaml before a handler runs, so
// handlers only see well-formed input. Failures become the API's error shapes.
func requestValidator(spec *openapi3.T) func(http.Handler) http.Handler {
	return nethttpmiddleware.OapiRequestValidatorWithOptions(spec, &nethttpmiddleware.Options{
		DoNotValidateServers:  true,
		SilenceServersWarning: true,
		Options: openapi3filter.Options{
			MultiError:         true,
			AuthenticationFunc: requireAuthentication,
		},
		ErrorHandlerWithOpts: func(_ context.Context, err error, w http.ResponseWriter, r *http.Request, opts nethttpmiddleware.ErrorHandlerOpts) {
			writeRequestError(w, r, err, opts.StatusCode)
		},
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

// writeRequestError answers a request that failed validation.
func writeRequestError(w http.ResponseWriter, r *http.Request, err error, status int) {
	var (
		mbe *http.MaxBytesError
		pe  *openapi3filter.ParseError
		sre *openapi3filter.SecurityRequirementsError
	)
	switch {
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", msgTooLarge)
	case errors.Is(err, routers.ErrMethodNotAllowed):
		writeError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "This method is not allowed here.")
	case errors.Is(err, routers.ErrPathNotFound) || status == http.StatusNotFound:
		writeError(w, http.StatusNotFound, "NOT_FOUND", msgNotFound)
	case errors.As(err, &sre) || status == http.StatusUnauthorized:
		writeError(w, http.StatusUnauthorized, "UNAUTHORIZED", msgUnauthorized)
	case errors.As(err, &pe) && isBodyError(err):
		writeError(w, http.StatusBadRequest, "MALFORMED_JSON", msgMalformedJSON)
	case status == http.StatusBadRequest:
		writeValidation(w, "", fieldErrors(err))
	default:
		writeDomainError(w, r, fmt.Errorf("validate request: %w", err))
	}
}

// isBodyError reports whether err concerns the request body (not a parameter).
func isBodyError(err error) bool {
	var re *openapi3filter.RequestError
	if errors.As(err, &re) {
		return re.RequestBody != nil
	}
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			if isBodyError(e) {
				return true
			}
		}
	}
	return false
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
			field = "request"
		}
		setOnce(out, field, msg)
		return
	}
	var pe *openapi3filter.ParseError
	if errors.As(err, &pe) && param != "" {
		setOnce(out, param, "This value is not in the expected format.")
		return
	}
	if param != "" {
		setOnce(out, param, "This value is not valid.")
	}
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
		if s != nil && s.Format == "uuid" {
			return field, "Must be a valid id."
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
func bindError(w http.ResponseWriter, _ *http.Request, err error) {
	var (
		inv *api.InvalidParamFormatError
		req *api.RequiredParamError
		hdr *api.RequiredHeaderError
		tm  *api.TooManyValuesForParamError
	)
	switch {
	case errors.As(err, &inv):
		writeValidation(w, "", map[string]string{inv.ParamName: "This value is not in the expected format."})
	case errors.As(err, &req):
		writeValidation(w, "", map[string]string{req.ParamName: "This field is required."})
	case errors.As(err, &hdr):
		writeValidation(w, "", map[string]string{hdr.ParamName: "This header is required."})
	case errors.As(err, &tm):
		writeValidation(w, "", map[string]string{tm.ParamName: "Give this value once."})
	default:
		writeValidation(w, "", map[string]string{"request": "The request is not valid."})
	}
}
