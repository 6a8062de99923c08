package com.healthpartner.api.webhook;

/**
 * Events that are not changes of the feed ({@code import.completed},
 * {@code erasure.completed}) are written as deliveries by the statement that ends what
 * they tell of, so that one exists exactly when it ended: this is the part of such a
 * statement that writes them.
 */
public final class WebhookOutbox {

	private WebhookOutbox() {
	}

	/**
	 * A statement (for a {@code with} clause) that writes, for each row of {@code source}
	 * (rows with a {@code partner_id}), a delivery of {@code eventType} with {@code data}
	 * (an SQL expression of the row giving the message's data as JSON text) to each of
	 * the partner's endpoints that asks for it, while the partner holds one of
	 * {@code readScopes} (a read scope of what the event is about), at {@code :now}. With
	 * {@code userId} (an SQL expression of the row) the event is about that user: it
	 * takes its place in the user's order after every change committed before this
	 * statement ({@code change_seq} 0 marks such an event, not a change of the feed);
	 * else it travels on its own.
	 */
	public static String deliveries(String source, String eventType, String data, String readScopes, String userId) {
		String place = (userId != null) ? userId + ", pg_current_xact_id(), 0" : "null, null, null";
		return """
				insert into webhook_deliveries (id, webhook_id, partner_id, message_id, event_type, user_id, change_txid,
				                                change_seq, data, occurred_at, status, next_attempt_at, created_at)
				select gen_random_uuid(), w.id, w.partner_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''),
				       '%2$s', %5$s, %3$s, :now, 'pending', :now, :now
				from %1$s s join webhooks w on w.partner_id = s.partner_id join partners p on p.id = s.partner_id
				where (w.events is null or '%2$s' = any(w.events)) and p.scopes && %4$s
				"""
			.formatted(source, eventType, data, readScopes, place);
	}

}
