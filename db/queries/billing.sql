-- name: SetStripeCustomerID :exec
-- SetStripeCustomerID remembers the user's Stripe customer (once; an existing one is kept).
UPDATE users
SET stripe_customer_id = @stripe_customer_id
WHERE id = @id AND stripe_customer_id IS NULL;

-- name: GetUserIDByStripeCustomer :one
-- GetUserIDByStripeCustomer finds the account of a Stripe customer.
SELECT id FROM users
WHERE stripe_customer_id = @stripe_customer_id;

-- name: RecordWebhookEvent :execrows
-- RecordWebhookEvent marks a Stripe event as handled; 0 rows means it already was.
INSERT INTO processed_webhook_events (event_id, event_type)
VALUES (@event_id, @event_type)
ON CONFLICT (event_id) DO NOTHING;

-- name: GetSubscriptionByStripeID :one
-- GetSubscriptionByStripeID returns the stored state of a Stripe subscription.
SELECT * FROM subscriptions
WHERE stripe_subscription_id = @stripe_subscription_id;

-- name: UpsertSubscription :execrows
-- UpsertSubscription stores a subscription's state unless a newer event already did
-- (0 rows then): events can arrive out of order.
INSERT INTO subscriptions (user_id, stripe_subscription_id, stripe_customer_id, plan, status,
                           current_period_end, cancel_at_period_end, last_event_at)
VALUES (@user_id, @stripe_subscription_id, @stripe_customer_id, @plan, @status,
        @current_period_end, @cancel_at_period_end, @last_event_at)
ON CONFLICT (stripe_subscription_id) DO UPDATE
SET plan                 = EXCLUDED.plan,
    status               = EXCLUDED.status,
    current_period_end   = COALESCE(EXCLUDED.current_period_end, subscriptions.current_period_end),
    cancel_at_period_end = EXCLUDED.cancel_at_period_end,
    last_event_at        = EXCLUDED.last_event_at
WHERE subscriptions.last_event_at <= EXCLUDED.last_event_at
  AND subscriptions.user_id = EXCLUDED.user_id;

-- name: MarkSubscriptionPastDue :execrows
-- MarkSubscriptionPastDue records a failed payment unless a newer event already arrived.
UPDATE subscriptions
SET status = 'past_due', last_event_at = @last_event_at
WHERE stripe_subscription_id = @stripe_subscription_id
  AND last_event_at <= @last_event_at
  AND status IN ('active', 'trialing', 'past_due');

-- name: LivePlanForUser :one
-- LivePlanForUser returns the best plan among the user's subscriptions that still give access.
SELECT plan FROM subscriptions
WHERE user_id = @user_id AND status IN ('active', 'trialing', 'past_due')
ORDER BY (plan = 'PREMIUM') DESC
LIMIT 1;

-- name: ListLiveSubscriptionsForUser :many
-- ListLiveSubscriptionsForUser returns the user's subscriptions that still give access.
SELECT * FROM subscriptions
WHERE user_id = @user_id AND status IN ('active', 'trialing', 'past_due')
ORDER BY created_at;

-- name: SetPaidRole :exec
-- SetPaidRole sets the role that follows from billing; operators (ADMIN) keep theirs.
UPDATE users
SET role = @role
WHERE id = @id AND role <> 'ADMIN';
