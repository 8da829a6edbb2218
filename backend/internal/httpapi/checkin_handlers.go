package httpapi

import (
	"context"
	"net/url"
	"strconv"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/gen/api"
)

func strs[T ~string](v []T) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = string(x)
	}
	return out
}

func enums[T ~string](v []string) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = T(x)
	}
	return out
}

func optStrs[T ~string](v *[]T) *[]string {
	if v == nil {
		return nil
	}
	return new(strs(*v))
}

func optDate(d *openapi_types.Date) *time.Time {
	if d == nil {
		return nil
	}
	return &d.Time
}

func apiCheckin(c checkin.Checkin) api.Checkin {
	return api.Checkin{
		Id: c.ID, Mood: c.Mood, Energy: c.Energy, Emotions: enums[api.Emotion](c.Emotions), Tags: enums[api.CheckinTag](c.Tags),
		Note: c.Note, LocalDate: openapi_types.Date{Time: c.LocalDate}, CreatedAt: c.CreatedAt,
	}
}

func apiCheckinCreated(s checkin.Saved) api.CheckinCreated {
	out := api.CheckinCreated{Checkin: apiCheckin(s.Checkin)}
	if s.Safety != "" {
		out.Safety = &api.SafetyPinned{Category: s.Safety}
	}
	if s.LowStreak {
		out.LowStreak = new(true)
	}
	return out
}

// CreateCheckin stores a check-in for the caller.
func (s *Server) CreateCheckin(ctx context.Context, req api.CreateCheckinRequestObject) (api.CreateCheckinResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	b := req.Body
	in := checkin.Input{Mood: b.Mood, Energy: b.Energy, Note: b.Note, LocalDate: optDate(b.LocalDate), ClientID: b.ClientId}
	if b.Emotions != nil {
		in.Emotions = strs(*b.Emotions)
	}
	if b.Tags != nil {
		in.Tags = strs(*b.Tags)
	}
	saved, err := s.deps.Checkins.Create(ctx, c.UserID, in)
	if err != nil {
		return nil, err
	}
	if saved.Repeat {
		return api.CreateCheckin200JSONResponse(apiCheckinCreated(saved)), nil
	}
	return api.CreateCheckin201JSONResponse(apiCheckinCreated(saved)), nil
}

// ListCheckins returns one page of the caller's check-ins, newest first.
func (s *Server) ListCheckins(ctx context.Context, req api.ListCheckinsRequestObject) (api.ListCheckinsResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	p := req.Params
	n, cursor := 0, ""
	if p.Limit != nil {
		if n = *p.Limit; n == 0 { // the contract's minimum is 1; 0 is not "the default"
			return nil, apperr.Invalid("limit", "Must be between 1 and 200.")
		}
	}
	if p.Cursor != nil {
		if cursor = *p.Cursor; cursor == "" {
			return nil, apperr.Invalid("cursor", "This isn't a page we know. Start again from the first page.")
		}
	}
	page, err := s.deps.Checkins.List(ctx, c.UserID, optDate(p.From), optDate(p.To), n, cursor)
	if err != nil {
		return nil, err
	}
	out := api.ListCheckins200JSONResponse{Body: make([]api.Checkin, len(page.Items))}
	for i, it := range page.Items {
		out.Body[i] = apiCheckin(it)
	}
	if page.Next != "" {
		next := url.Values{"cursor": {page.Next}}
		if p.From != nil {
			next.Set("from", p.From.String())
		}
		if p.To != nil {
			next.Set("to", p.To.String())
		}
		if p.Limit != nil {
			next.Set("limit", strconv.Itoa(*p.Limit))
		}
		out.Headers.Link = new("</api/checkins?" + next.Encode() + `>; rel="next"`)
	}
	return out, nil
}

// GetCheckinSummary returns the caller's moods over the last 30 or 365 days.
func (s *Server) GetCheckinSummary(ctx context.Context, req api.GetCheckinSummaryRequestObject) (api.GetCheckinSummaryResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	days := 30
	if req.Params.Days != nil {
		days = int(*req.Params.Days)
	}
	sum, err := s.deps.Checkins.Summary(ctx, c.UserID, days, optDate(req.Params.Today))
	if err != nil {
		return nil, err
	}
	out := api.CheckinSummary{
		Days: api.CheckinSummaryDays(sum.Days), From: openapi_types.Date{Time: sum.From}, To: openapi_types.Date{Time: sum.To},
		DaysThisMonth: sum.DaysThisMonth, PerDay: make([]api.CheckinDay, len(sum.PerDay)), Weekdays: make([]api.WeekdayMood, len(sum.Weekdays)),
	}
	for i, d := range sum.PerDay {
		out.PerDay[i] = api.CheckinDay{Date: openapi_types.Date{Time: d.Date}, Mood: d.Mood, Count: d.Count}
	}
	for i, w := range sum.Weekdays {
		out.Weekdays[i] = api.WeekdayMood{Weekday: w.Weekday, Mood: w.Mood, Count: w.Count}
	}
	if sum.Tags != nil {
		tags := make([]api.TagMood, len(sum.Tags))
		for i, t := range sum.Tags {
			tags[i] = api.TagMood{Tag: api.CheckinTag(t.Tag), WithMood: t.With.Mood, WithCount: t.With.Count, WithoutMood: t.Without.Mood, WithoutCount: t.Without.Count}
		}
		out.Tags = &tags
	}
	return api.GetCheckinSummary200JSONResponse(out), nil
}

// UpdateCheckin changes one of the caller's check-ins.
func (s *Server) UpdateCheckin(ctx context.Context, req api.UpdateCheckinRequestObject) (api.UpdateCheckinResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	b := req.Body
	saved, err := s.deps.Checkins.Update(ctx, c.UserID, req.CheckinId, checkin.Patch{
		Mood: b.Mood, Energy: b.Energy, Note: b.Note, Emotions: optStrs(b.Emotions), Tags: optStrs(b.Tags),
	})
	if err != nil {
		return nil, err
	}
	return api.UpdateCheckin200JSONResponse(apiCheckinCreated(saved)), nil
}

// DeleteCheckin deletes one of the caller's check-ins.
func (s *Server) DeleteCheckin(ctx context.Context, req api.DeleteCheckinRequestObject) (api.DeleteCheckinResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.deps.Checkins.Delete(ctx, c.UserID, req.CheckinId); err != nil {
		return nil, err
	}
	return api.DeleteCheckin204Response{}, nil
}
