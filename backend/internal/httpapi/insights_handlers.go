package httpapi

import (
	"context"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/insights"

	"github.com/percolate/percolate/gen/api"
)

// ListWeeklyReports returns the caller's weekly insight reports (Premium).
func (s *Server) ListWeeklyReports(ctx context.Context, _ api.ListWeeklyReportsRequestObject) (api.ListWeeklyReportsResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.deps.Insights.List(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	out := make(api.ListWeeklyReports200JSONResponse, 0, len(rows))
	for _, r := range rows {
		emotions := make([]api.EmotionCount, 0, len(r.Emotions))
		for _, e := range r.Emotions {
			emotions = append(emotions, api.EmotionCount{Emotion: api.Emotion(e.Emotion), Count: e.Count})
		}
		out = append(out, api.WeeklyReport{
			Id: r.ID, WeekStart: openapi_types.Date{Time: r.WeekStart}, CreatedAt: r.CreatedAt,
			SessionCount: r.SessionCount, Emotions: emotions, Themes: r.Themes, Suggestion: r.Suggestion, SoFar: new(r.SoFar),
			Checkins: weekCheckins(r.Checkins),
		})
	}
	return out, nil
}

// weekCheckins is the contract's form of a week's check-ins (nil: a report stored before them).
func weekCheckins(w *insights.WeekCheckins) *api.WeekCheckins {
	if w == nil {
		return nil
	}
	out := &api.WeekCheckins{Count: w.Count, Tags: make([]api.TagCount, 0, len(w.Tags))}
	if w.Count > 0 {
		out.LowestMood, out.HighestMood = new(w.LowestMood), new(w.HighestMood)
	}
	for _, t := range w.Tags {
		out.Tags = append(out.Tags, api.TagCount{Tag: api.CheckinTag(t.Tag), Count: t.Count})
	}
	return out
}
