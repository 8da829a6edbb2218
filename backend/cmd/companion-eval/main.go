// Command companion-eval is the companion's conversation benchmark (issue 34, section 7): it
// runs the blind-written conversations through the send path's decisions and the offline
// engine (or, with -model, the model the app is configured with) and prints the automatic
// figures per half; with -judge, a model also rates each reply against a written rubric.
//
//	go run ./backend/cmd/companion-eval [-data DIR] [-tuning] [-baseline keywords] [-v]
//	go run ./backend/cmd/companion-eval -model [-judge [-judge-model NAME]] [-tuning] [-v]
//
// It never prints a held-back message or reply, only figures. -tuning measures the tuning half
// only (for work in progress, which must never read the held-back half); -v prints the tuning
// half's conversations with the replies (with -judge: its failing turns only); -baseline
// keywords ablates the sentence encoder.
//
// Nothing calls a model unless -model or -judge is given, and then only the endpoint the app's
// own variables configure (PERCOLATE_LLM_BASE_URL, PERCOLATE_LLM_API_KEY, PERCOLATE_LLM_MODEL).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/companioneval"
	"github.com/percolate/percolate/backend/internal/config"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("companion-eval", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("data", "backend/internal/companion/companioneval/data", "the data directory")
	tuningOnly := fl.Bool("tuning", false, "measure the tuning half only: for work in progress, which must never read the held-back half")
	baseline := fl.String("baseline", "", `"keywords": the encoder ablated, acts read from keyword rules alone`)
	verbose := fl.Bool("v", false, "print the tuning half's conversations and replies (never the held-back half's); with -judge, its failing turns only")
	withModel := fl.Bool("model", false, "write the replies with the model the app's PERCOLATE_LLM_* variables configure, instead of the offline engine")
	judge := fl.Bool("judge", false, "rate each reply with a model against the written rubric (the configured endpoint)")
	judgeModel := fl.String("judge-model", "", "the judge's model on the configured endpoint (default: PERCOLATE_LLM_MODEL's)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	var cfg config.LLM
	if *withModel || *judge {
		c, err := config.Load(getenv)
		if err != nil {
			fmt.Fprintf(stderr, "companion-eval: %v\n", err)
			return 2
		}
		if cfg = c.LLM; !cfg.Configured() {
			fmt.Fprintf(stderr, "companion-eval: -model and -judge need a model: set %s (and %s, %s)\n",
				config.EnvLLMBaseURL, config.EnvLLMAPIKey, config.EnvLLMModel)
			return 2
		}
	}
	engine := companion.NewOffline()
	engine.WordDelay = 0
	name := "offline engine with the sentence encoder"
	switch *baseline {
	case "":
	case "keywords":
		engine.Keywords, name = true, "keyword baseline (encoder ablated)"
	default:
		fmt.Fprintf(stderr, "companion-eval: no baseline named %q\n", *baseline)
		return 2
	}
	var model *companioneval.Model
	if *withModel {
		if *baseline != "" {
			fmt.Fprintln(stderr, "companion-eval: -baseline ablates the offline engine's encoder; it has no meaning with -model")
			return 2
		}
		model = &companioneval.Model{Provider: companion.NewOpenAI(cfg, companion.OpenAIOptions{}), ReplyTimeout: cfg.ReplyTimeout}
		name = "model " + cfg.Model + " with the app's system prompt"
	}
	var judgeBy *companioneval.Judge
	if *judge {
		c := openai.DefaultConfig(cfg.APIKey)
		c.BaseURL = cfg.BaseURL
		jm := *judgeModel
		if jm == "" {
			jm = cfg.Model
		}
		judgeBy = &companioneval.Judge{Client: openai.NewClientWithConfig(c), Model: jm}
	}
	halves := []string{companioneval.Tuning}
	if !*tuningOnly {
		halves = append(halves, companioneval.Heldback)
	}
	fmt.Fprintf(stdout, "companion-eval: %s\n", name)
	for _, h := range halves {
		convs, err := companioneval.Load(*dir, h)
		if err != nil {
			fmt.Fprintf(stderr, "companion-eval: %v\n", err)
			return 1
		}
		runs := make([]companioneval.Run, len(convs))
		for i, c := range convs {
			if model != nil {
				runs[i] = model.Converse(ctx, c)
			} else {
				runs[i] = companioneval.Converse(c, engine)
			}
			if ctx.Err() != nil {
				fmt.Fprintln(stderr, "companion-eval: interrupted")
				return 1
			}
		}
		tuning := h == companioneval.Tuning
		if *verbose && tuning && judgeBy == nil {
			writeRuns(stdout, runs, engine.Keywords, model != nil)
		}
		companioneval.Tally(runs, engine.Keywords, model != nil).Write(stdout, h)
		if judgeBy != nil {
			verdicts := judgeBy.RateRuns(ctx, runs)
			if *verbose && tuning {
				companioneval.WriteFailing(stdout, runs, verdicts)
			}
			companioneval.TallyVerdicts(runs, verdicts).Write(stdout, h+": judged by "+judgeBy.Model)
			if ctx.Err() != nil {
				fmt.Fprintln(stderr, "companion-eval: interrupted")
				return 1
			}
		}
	}
	return 0
}

// writeRuns prints the tuning half's conversations with their replies and what each missed.
// With a model, the offline engine's reading of the act is left out.
func writeRuns(w io.Writer, runs []companioneval.Run, keywords, model bool) {
	for _, r := range runs {
		fmt.Fprintf(w, "\n== %s: %s\n", r.Conv.ID, r.Conv.Topic)
		misses := companioneval.Misses(r, keywords)
		for i, ex := range r.Exchanges {
			fmt.Fprintf(w, "U: %s\n   %+v\nA: %s\n", ex.Turn.User, ex.Turn.Expect, ex.Reply)
			if ex.Failed {
				fmt.Fprintln(w, "   the model failed")
			}
			m := misses[i]
			if model {
				m = slices.DeleteFunc(m, func(s string) bool { return strings.HasPrefix(s, "act:") })
			}
			if len(m) > 0 {
				fmt.Fprintf(w, "   missed: %s\n", strings.Join(m, ", "))
			}
		}
		fmt.Fprintf(w, "memories: %q\nnext session: %s\n", r.Memories, r.Recall)
	}
}
