package bench

// The report: the targets and whether this run met them, results.json and results.md.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/percolate/percolate/backend/internal/checkin"
)

func targets(r *Results) []Target {
	var t []Target
	ratio := func(name string, want float64) {
		for _, l := range r.Reads {
			if strings.HasPrefix(l.Name, name) {
				t = append(t, Target{What: "reads: " + l.Name + " req/s vs the ceiling", Want: fmt.Sprintf("≥ %.2f", want),
					Got: fmt.Sprintf("%.3f", l.Ratio), Met: l.Ratio >= want && l.Errors == 0})
			}
		}
	}
	ratio("GET /api/auth/me", 0.25)
	ratio("GET /api/chat/sessions (50)", 0.12)
	ratio("GET /api/chat/sessions/{id}", 0.12)
	g := r.GrowthRatio
	t = append(t,
		Target{What: fmt.Sprintf("growth: list p50, %d sessions vs %d", g.BigSessions, g.SmallSessions), Want: "≤ ×2", Got: fmt.Sprintf("×%.2f", g.ListP50Ratio), Met: g.ListP50Ratio <= 2},
		Target{What: fmt.Sprintf("growth: search p50, %d sessions vs %d", g.BigSessions, g.SmallSessions), Want: "≤ ×2", Got: fmt.Sprintf("×%.2f", g.SearchP50Ratio), Met: g.SearchP50Ratio <= 2},
		Target{What: "growth: first page of the list", Want: "< 100 KB", Got: fmt.Sprintf("%d bytes", g.FirstPageBytes), Met: g.FirstPageBytes < 100_000},
		Target{What: "memory: idle RSS", Want: "≤ 30 MiB", Got: fmt.Sprintf("%.1f MiB", r.IdleRSSMiB), Met: r.IdleRSSMiB > 0 && r.IdleRSSMiB <= 30},
	)
	if len(r.TTFT) == 2 {
		a, b := r.TTFT[0], r.TTFT[1]
		ok := a.Errors == 0 && b.Errors == 0
		t = append(t,
			Target{What: fmt.Sprintf("time to first token added by the server, p50 (%d requests, %d messages of history)", a.Requests, a.History), Want: "≤ 1 ms", Got: fmt.Sprintf("%.2f ms", a.AddedP50ms), Met: ok && a.AddedP50ms <= 1},
			Target{What: "time to first token added by the server, p99", Want: "≤ 5 ms", Got: fmt.Sprintf("%.2f ms", a.AddedP99ms), Met: ok && a.AddedP99ms <= 5},
			Target{What: fmt.Sprintf("time to first token added, p50 at %d messages of history vs %d", b.History, a.History), Want: "≤ ×1.2", Got: fmt.Sprintf("×%.2f", b.AddedP50ms/a.AddedP50ms), Met: ok && b.AddedP50ms <= 1.2*a.AddedP50ms},
		)
	}
	for _, l := range r.Checkins {
		t = append(t, Target{What: "check-ins: " + l.Name + " req/s vs the ceiling", Want: "≥ 0.25", Got: fmt.Sprintf("%.3f", l.Ratio), Met: l.Ratio >= 0.25 && l.Errors == 0})
	}
	if d := r.DueClaim; d != nil {
		t = append(t, Target{What: fmt.Sprintf("reminders: claim of %d due among %d users with reminders, p50", d.Batch, d.Users), Want: "≤ 20 ms",
			Got: fmt.Sprintf("%.2f ms", d.P50ms), Met: d.P50ms <= 20 && d.Claimed == d.Batch})
	}
	for _, l := range r.Login {
		if l.Conns == 8 {
			t = append(t, Target{What: "memory: peak RSS while logging in at 8 parallel", Want: "≤ 128 MiB", Got: fmt.Sprintf("%.1f MiB", l.RSSMiB), Met: l.RSSMiB > 0 && l.RSSMiB <= 128})
		}
	}
	return t
}

// Rewrite renders dir/results.md again from dir/results.json.
func Rewrite(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "results.json")) // #nosec G304 -- the results directory the operator named
	if err != nil {
		return err
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.md"), []byte(Markdown(&r)+findings(dir)), 0o644) // #nosec G306 -- committed, public results
}

// findings is dir/findings.md, written by people: what was found behind each target, met or
// missed. results.md ends with it.
func findings(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "findings.md")) // #nosec G304 -- the results directory the operator named
	if err != nil {
		return ""
	}
	return "\n" + string(b)
}

func write(dir string, r *Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil { // #nosec G301 -- a directory of the repository
		return err
	}
	j, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(j, '\n'), 0o644); err != nil { // #nosec G306 -- committed, public results
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.md"), []byte(Markdown(r)+findings(dir)), 0o644) // #nosec G306 -- committed, public results
}

// Markdown renders the results for people.
func Markdown(r *Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# `make bench` results\n\nWritten by `make bench` (backend/cmd/percolate-bench); do not edit by hand.\n\n")
	fmt.Fprintf(&b, "- When: %s\n- Machine: %d CPUs, %s, %s, %s\n- Server: %s\n- Each phase: %.1f s, loopback only\n- Idle server RSS: %.1f MiB\n\n"+
		"Server RSS is the peak VmRSS (/proc/PID/status) sampled every 50 ms during a phase. Bytes are a 200 answer's body as the client reads it: Go's client asks for gzip and decompresses, so they are the uncompressed size. Ratios are to the reference measured in the same run.\n\n",
		r.When, r.Machine.NProc, r.Machine.CPU, r.Machine.OS, r.Machine.Go, r.Server, r.PhaseSec, r.IdleRSSMiB)
	table := func(title, ratioName string, ls []Load) {
		fmt.Fprintf(&b, "## %s\n\n| phase | conns | requests | errors | req/s | p50 ms | p99 ms | bytes | server RSS MiB | %s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", title, ratioName)
		for _, l := range ls {
			ratio := ""
			if l.Ratio > 0 {
				ratio = fmt.Sprintf("%.3f", l.Ratio)
			}
			rss := ""
			if l.RSSMiB > 0 {
				rss = fmt.Sprintf("%.1f", l.RSSMiB)
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %.0f | %.2f | %.2f | %d | %s | %s |\n", l.Name, l.Conns, l.Requests, l.Errors, l.RPS, l.P50ms, l.P99ms, l.Bytes, rss, ratio)
		}
		b.WriteString("\n")
	}
	table("Reads", "ratio to ceiling", r.Reads)
	if len(r.Reads) > 1 && r.Reads[1].CPUus > 0 {
		b.WriteString("Server cost per request (CPU from /proc; allocations and GC cycles only when the server serves pprof):\n\n| phase | CPU µs/req | allocs/req | KiB/req | GCs per 1000 req |\n|---|---:|---:|---:|---:|\n")
		for _, l := range r.Reads[1:] {
			fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.1f | %.2f |\n", l.Name, l.CPUus, l.AllocsPerReq, l.KBPerReq, l.GCsPer1k)
		}
		b.WriteString("\n")
	}
	if len(r.Checkins) > 0 {
		table("Check-ins (a write, against the same ceiling)", "ratio to ceiling", r.Checkins)
		fmt.Fprintf(&b, "Each seeded user posts at most %d check-ins (a user may make %d writes an hour), so the phase counts check-ins, not refusals.\n\n", checkinsPerUser, checkin.WritesPerHour.Limit)
		if l := r.Checkins[0]; l.CPUus > 0 {
			fmt.Fprintf(&b, "Server cost per check-in: %.0f CPU µs, %.0f allocs, %.1f KiB, %.2f GCs per 1000 (allocations and GC cycles only when the server serves pprof).\n\n", l.CPUus, l.AllocsPerReq, l.KBPerReq, l.GCsPer1k)
		}
	}
	if d := r.DueClaim; d != nil {
		b.WriteString("## Due reminders (the reminder job's claim, in the harness process, no server running)\n\n")
		fmt.Fprintf(&b, "%d users with reminders, %d due now and the rest over the coming week; one claim of a batch of %d (ClaimDueReminders, rolled back so every run finds the same rows), %d runs: p50 %.2f ms, p95 %.2f ms, %d claimed. The plan uses the index on next_due: %v.\n\n",
			d.Users, d.Due, d.Batch, d.Runs, d.P50ms, d.P95ms, d.Claimed, d.UsesIndex)
		fmt.Fprintf(&b, "```\n%s\n```\n\n", d.Plan)
	}
	table("Growth (1 connection)", "", r.Growth)
	g := r.GrowthRatio
	fmt.Fprintf(&b, "List p50 ×%.2f, search p50 ×%.2f for %d sessions against %d; first page %d bytes.\n\n", g.ListP50Ratio, g.SearchP50Ratio, g.BigSessions, g.SmallSessions, g.FirstPageBytes)
	table("Login", "ratio to raw argon2id", r.Login)
	table("Raw argon2id (the app's parameters, in the harness process)", "", r.Argon2)
	if len(r.TTFT) > 0 {
		b.WriteString("## Time to first token added by the server (one request at a time, a model on the OpenAI wire that answers at once)\n\n")
		fmt.Fprintf(&b, "Added = (first delta at the client − request sent) − (model's first chunk flushed − request reached the model); upstream = request reached the model − request sent; downstream = first delta at the client − model's first chunk flushed. Each user opens a session of their own (reads it, untimed, as the web app does) and sends 19 messages to it; a session of more than %d messages is seeded with the running summary a session of that length has (all but its newest %d messages), and the model answers summaries with JSON, so that its summary job runs as it would in use.\n\n", summarisedAfter*2, summarisedAfter)
		b.WriteString("| history | requests | errors | added p50 ms | added p99 ms | upstream p50 ms | upstream p99 ms | downstream p50 ms | downstream p99 ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, x := range r.TTFT {
			fmt.Fprintf(&b, "| %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", x.History, x.Requests, x.Errors, x.AddedP50ms, x.AddedP99ms, x.UpP50ms, x.UpP99ms, x.DownP50ms, x.DownP99ms)
			if x.FirstErr != "" {
				fmt.Fprintf(&b, "\nFirst error at %d messages of history: %s\n", x.History, x.FirstErr)
			}
		}
		b.WriteString("\n")
	}
	if x := r.Instances; x != nil {
		b.WriteString("## Two instances, one database\n\n")
		b.WriteString("Two instances of the server, A and B, started in place of the one above, each with a data directory of its own, on the same database and public URL, with the offline engine. ")
		b.WriteString("A login begun on A is used on B; sessions are begun on one, written to on the other and ended on the first; ")
		b.WriteString("wrong passwords go to A alone for one account and alternate between A and B for another; a login B has just checked is closed on A, and B is asked until it answers 401. ")
		b.WriteString("A job run twice would show as a second job, an attempt above 1 or a second recorded runner.\n\n")
		fmt.Fprintf(&b, "- Logout on A until B refuses: access token %.1f ms, refresh token %.1f ms (-1: still accepted after %.0f ms)\n", x.LogoutAccessMs, x.LogoutRefreshMs, x.WaitMs)
		fmt.Fprintf(&b, "- Login limit %d: 429 at wrong password %d on A alone, %d alternating A and B\n", x.LoginLimit, x.LimitedAtOne, x.LimitedAtBoth)
		for _, j := range []Jobs{x.Summaries, x.Memories} {
			fmt.Fprintf(&b, "- %s, %d sessions ended: %d jobs, %d completed, %d attempts, %d recorded runs, by %d distinct instances\n", j.Kind, x.Ended, j.Jobs, j.Completed, j.Runs, j.RunBy, j.Clients)
		}
		fmt.Fprintf(&b, "- Summaries written: %d of %d\n", x.Written, x.Ended)
		if x.FirstErr != "" {
			fmt.Fprintf(&b, "- First error: %s\n", x.FirstErr)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Targets of issues 14 and 31\n\n| target | want | got | met |\n|---|---|---|---|\n")
	for _, t := range r.Targets {
		met := "no"
		if t.Met {
			met = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.What, t.Want, t.Got, met)
	}
	if len(r.NotMeasured) > 0 {
		b.WriteString("\n## Not measured yet\n\n")
		for _, n := range r.NotMeasured {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}
