package account

import (
	"github.com/google/uuid"

	dbgen "github.com/percolate/percolate/gen/db"
)

// User is an account as the rest of the app sees it: never its password hash or its
// bookkeeping columns.
type User struct {
	ID              uuid.UUID
	Email           string
	Name            string
	Role            string
	IsStudent       bool
	Age             *int
	FocusAreas      string
	PrimaryConcerns string
	SensitiveTopics string
	MemoryEnabled   bool
	Country         *string // ISO 3166-1 alpha-2, nil when not set
	Onboarded       bool    // the onboarding was completed or skipped
}

func userOf(u dbgen.User) User {
	v := User{
		ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role, IsStudent: u.IsStudent,
		FocusAreas: u.FocusAreas, PrimaryConcerns: u.PrimaryConcerns, SensitiveTopics: u.SensitiveTopics,
		MemoryEnabled: u.MemoryEnabled, Country: u.Country, Onboarded: u.Onboarded,
	}
	if u.Age != nil {
		a := int(*u.Age)
		v.Age = &a
	}
	return v
}
