package httpapi

import (
	"context"

	"github.com/percolate/percolate/backend/internal/companion/resources"
	api "github.com/percolate/percolate/gen/api"
)

// GetSafetyResources gives a country's emergency number and helplines from the vetted table,
// to anyone: the /safety page must work signed out.
func (s *Server) GetSafetyResources(_ context.Context, req api.GetSafetyResourcesRequestObject) (api.GetSafetyResourcesResponseObject, error) {
	return api.GetSafetyResources200JSONResponse(safetyResources(req.Params.Country)), nil
}

// countryList is the table's countries by name, for the profile's country field.
var countryList = func() []struct {
	Code string `json:"code"`
	Name string `json:"name"`
} {
	codes := resources.Codes()
	out := make([]struct {
		Code string `json:"code"`
		Name string `json:"name"`
	}, len(codes))
	for i, code := range codes {
		c, _ := resources.For(code)
		out[i].Code, out[i].Name = code, c.Name
	}
	return out
}()

func safetyResources(country *string) api.SafetyResources {
	out := api.SafetyResources{Lines: []api.HelpLine{}, FallbackUrl: resources.FallbackURL, Countries: countryList}
	if country == nil {
		return out
	}
	c, ok := resources.For(*country)
	code := c.Code
	if !ok {
		code = upper2(*country)
	}
	out.Country = &code
	if !ok {
		return out
	}
	out.Covered, out.Emergency = true, c.Emergency
	out.Name, out.EmergencySource, out.Checked = &c.Name, &c.EmergencySource, &c.Checked
	for _, l := range c.Lines {
		h := api.HelpLine{Name: l.Name, Kind: api.HelpLineKind(l.Kind), Source: l.Source, Checked: l.Checked}
		if l.Call != "" {
			call, dial := l.Call, resources.Dial(l.Call)
			h.Call, h.CallDial = &call, &dial
		}
		if l.Text != "" {
			text, dial := l.Text, resources.Dial(l.Text)
			h.Text, h.TextDial = &text, &dial
		}
		out.Lines = append(out.Lines, h)
	}
	return out
}

// upper2 is a two-letter code in upper case (the contract's pattern allows any case).
func upper2(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
