// Package chat holds chat sessions and messages: sending a message (quota, storage, safety,
// the companion's reply), listing, reading, searching, ending and deleting sessions, and the
// background job that summarises an ended session. Every call is scoped to the caller's user
// id: another user's session is not found, and nothing about it changes.
//
// What lives where, grouped by what changes together:
//   - the service and its vocabulary: chat.go (rules' texts and values, limits, Service,
//     Session, Message, Detail, the views and the errors they share);
//   - sending and replies: send.go (Send, Begin, the quota and rate checks), turn.go (a
//     message decided in a new or a continued session, Retry), commit.go (a send's
//     transaction: the locks of its first round trip, its writes, the commit that lets its
//     reply be shown), read.go (the reads a send needs: the user, memories, recent
//     check-ins, the history that fits the prompt), safety.go (the safety step of a send), reply.go (the companion's reply
//     produced, and its prompt), stored.go (a reply stored, a session ended by its token
//     limit), sendstate.go (what this instance keeps of a session for its next send);
//   - reading and listing: session.go (Get, Detail, Takeaway, End, Delete), pages.go (the
//     keyset-paged list and search), detailcache.go (the details this instance keeps);
//   - live replies and re-attach: live.go (a reply in progress, followed here or on another
//     instance through LISTEN/NOTIFY), attach.go (Attach, Stop);
//   - background jobs: summary.go (an ended session's summary), context.go (the running
//     summary of what no longer fits the prompt), memory.go (facts kept from ended sessions).
//
// Round trips. Where they add up (a send before its reply starts, a reply stored, a chat or
// the list read), several statements share one round trip through store.NewBatch. Its
// function makes ordinary calls on the *dbgen.Queries it is given and keeps what they return
// in variables, which hold the results once the batch is sent:
//
//	b := store.NewBatch(func(q *dbgen.Queries) {
//		role, roleErr = q.GetUserRole(ctx, userID)
//		row, rowErr = q.GetSessionForUser(ctx, params)
//	})
//
// The function runs twice (recorded, then replayed on the results), so it only makes calls:
// every decision, and anything with a side effect (a clock, a new id), comes before it or
// after the send. Everything else makes plain calls, on s.store.Queries() or in a transaction.
package chat
