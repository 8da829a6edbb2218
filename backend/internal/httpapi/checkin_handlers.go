package httpapi

import (
	"context"
	"errors"

	"github.com/percolate/percolate/gen/api"
)

// errCheckinsPending stands in until the check-in handlers land (branch checkins2); this file
// is replaced there and never reaches main as it is.
var errCheckinsPending = errors.New("check-ins: handlers not built yet")

func (s *Server) CreateCheckin(context.Context, api.CreateCheckinRequestObject) (api.CreateCheckinResponseObject, error) {
	return nil, errCheckinsPending
}

func (s *Server) ListCheckins(context.Context, api.ListCheckinsRequestObject) (api.ListCheckinsResponseObject, error) {
	return nil, errCheckinsPending
}

func (s *Server) GetCheckinSummary(context.Context, api.GetCheckinSummaryRequestObject) (api.GetCheckinSummaryResponseObject, error) {
	return nil, errCheckinsPending
}

func (s *Server) UpdateCheckin(context.Context, api.UpdateCheckinRequestObject) (api.UpdateCheckinResponseObject, error) {
	return nil, errCheckinsPending
}

func (s *Server) DeleteCheckin(context.Context, api.DeleteCheckinRequestObject) (api.DeleteCheckinResponseObject, error) {
	return nil, errCheckinsPending
}

func (s *Server) TalkAboutCheckin(context.Context, api.TalkAboutCheckinRequestObject) (api.TalkAboutCheckinResponseObject, error) {
	return nil, errCheckinsPending
}
