package com.healthpartner.api.webhook;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.system.Bindings;

/**
 * The endpoints and their deliveries (V37, V40). The changes of the feed are
 * {@link #read} for an endpoint under a lease, sent, and {@link #record}ed as deliveries
 * with their outcomes; open deliveries (failed, waiting behind a failed one, or made by
 * other statements) are claimed by an instance with a lease by {@link #claim}, and their
 * attempts' outcomes recorded by {@link #succeeded}, {@link #failed} and {@link #gone}
 * (docs/design.md, Webhooks).
 */
class WebhookRepository {

	/**
	 * The deliveries' bookkeeping commits without waiting for its WAL to reach the disk
	 * ({@link #bookkeeping}): this in the transaction that does it.
	 */
	private static final String ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true)";

	/**
	 * The settings of a transaction of the deliveries' bookkeeping
	 * ({@link #bookkeeping}): its commit does not wait for the disk, and each statement
	 * is planned for its values.
	 */
	private static final String BOOKKEEPING = ASYNC_COMMIT
			+ ", set_config('plan_cache_mode', 'force_custom_plan', true)";

	private final DatabaseClient db;

	private final TransactionalOperator transaction;

	private final List<String> allEvents;

	private final String read;

	WebhookRepository(DatabaseClient db, TransactionalOperator transaction, WebhookEvents events) {
		this.db = db;
		this.transaction = transaction;
		this.allEvents = events.all();
		String anyRead = events.readScopes()
			.stream()
			.map((scope) -> "'" + scope.value() + "'")
			.collect(java.util.stream.Collectors.joining(", ", "array[", "]"));
		this.read = """
				with h as materialized (
				    select pg_snapshot_xmin(pg_current_snapshot()) as horizon, %s as bookkeeping
				), ep as materialized (
				    select w.id, w.partner_id, w.after_txid, w.after_seq, w.events, w.url, w.secret, w.previous_secret,
				           w.previous_until, p.scopes
				    from webhooks w join partners p on p.id = w.partner_id
				    where w.status = 'enabled' and p.status = 'active' and w.after_txid < (select horizon from h)
				      and (w.leased_until is null or w.leased_until < :now)
				    order by w.id limit :webhooks
				    for update of w skip locked
				), c as materialized (
				    select w.id as webhook_id, c.txid, c.seq, c.user_id, c.item, c.changed_at, c.type,
				           (w.events is null or c.type = any(w.events))
				           and (c.kind = 'user_erased' and w.scopes && %s or (c.resource || ':read') = any(w.scopes))
				           and (c.kind = 'user_erased' or not exists (
				               select 1 from user_erasures x
				               where x.partner_id = w.partner_id and x.user_id = c.user_id and x.status = 'pending'
				                 and c.txid < x.cutoff)) as wanted
				    from ep w cross join lateral (
				        select c.txid, c.seq, c.kind, c.resource, c.user_id, c.item, c.changed_at,
				               case when c.kind = 'user_erased' then 'user.erased' else c.resource || '.' || c.kind end as type
				        from changes c
				        where c.partner_id = w.partner_id and (c.txid, c.seq) > (w.after_txid, w.after_seq)
				          and c.txid < (select horizon from h)
				        order by c.txid, c.seq limit :changes) c
				), ends as materialized (
				    select ep.id, l.txid, l.seq, exists (select 1 from c where c.webhook_id = ep.id and c.wanted) as sends
				    from ep left join lateral (
				        select c.txid, c.seq from c where c.webhook_id = ep.id order by c.txid desc, c.seq desc limit 1) l on true
				), moved as (
				    update webhooks w
				    set after_txid = case when e.sends then w.after_txid
				                          else greatest(w.after_txid, coalesce(e.txid, (select horizon from h))) end,
				        after_seq = case when e.sends then w.after_seq when e.txid is null then 0 else e.seq end,
				        leased_until = case when e.sends then cast(:lease as timestamptz) else w.leased_until end
				    from ends e where w.id = e.id
				)
				select c.webhook_id, ep.partner_id, c.user_id, c.type, c.txid::text::bigint as txid, c.seq,
				       '{"change_id":"' || c.txid::text || '.' || c.seq || '",' || c.item as data, c.changed_at,
				       e.txid::text::bigint as end_txid, e.seq as end_seq,
				       exists (select 1 from webhook_deliveries d
				               where d.webhook_id = c.webhook_id and d.user_id = c.user_id
				                 and d.status in ('pending', 'failing')) as blocked,
				       ep.url, ep.secret, ep.previous_secret, ep.previous_until, ep.scopes
				from c join ends e on e.id = c.webhook_id join ep on ep.id = c.webhook_id
				where c.wanted
				order by c.webhook_id, c.txid, c.seq
				"""
			.formatted(BOOKKEEPING, anyRead);
	}

	/**
	 * Adds an endpoint unless the partner has {@code max} already (empty then). It starts
	 * at the feed's horizon: changes committed from now on.
	 */
	Mono<WebhookRow> create(UUID id, UUID partnerId, String url, String[] events, String description, byte[] secret,
			Instant now, int max) {
		return this.db.sql("select pg_advisory_xact_lock(hashtextextended(cast(:partnerId as text), 13))")
			.bind("partnerId", partnerId)
			.then()
			.then(Mono.defer(() -> {
				DatabaseClient.GenericExecuteSpec spec = this.db
					.sql("""
							insert into webhooks (id, partner_id, url, events, description, status, secret, after_txid, after_seq,
							                      created_at, updated_at)
							select :id, :partnerId, :url, :events, :description, 'enabled', :secret,
							       pg_snapshot_xmin(pg_current_snapshot()), 0, :now, :now
							where (select count(*) from webhooks where partner_id = :partnerId) < :max
							returning %s
							"""
						.formatted(WebhookRow.COLUMNS))
					.bind("id", id)
					.bind("partnerId", partnerId)
					.bind("url", url)
					.bind("secret", secret)
					.bind("now", now)
					.bind("max", (long) max);
				spec = Bindings.nullable(spec, "events", events, String[].class);
				return Bindings.nullable(spec, "description", description, String.class).map(this::row).one();
			}))
			.as(this.transaction::transactional);
	}

	Flux<WebhookRow> list(UUID partnerId, Cursors.Position after, int limit) {
		String position = (after != null) ? " and (created_at, id) > (:afterAt, :afterId)" : "";
		DatabaseClient.GenericExecuteSpec spec = this.db.sql("""
				select %s from webhooks where partner_id = :partnerId%s order by created_at, id limit :limit
				""".formatted(WebhookRow.COLUMNS, position)).bind("partnerId", partnerId).bind("limit", limit);
		if (after != null) {
			spec = spec.bind("afterAt", after.at()).bind("afterId", after.id());
		}
		return spec.map(this::row).all();
	}

	Mono<WebhookRow> find(UUID partnerId, UUID id) {
		return this.db
			.sql("select %s from webhooks where id = :id and partner_id = :partnerId".formatted(WebhookRow.COLUMNS))
			.bind("id", id)
			.bind("partnerId", partnerId)
			.map(this::row)
			.one();
	}

	/**
	 * Changes what {@code change} holds: each field set in it (the others stay). Enabling
	 * resumes where delivery stopped: what failed is due at once.
	 */
	Mono<WebhookRow> update(UUID partnerId, UUID id, Change change, Instant now) {
		StringBuilder set = new StringBuilder("updated_at = :now");
		if (change.url() != null) {
			set.append(", url = :url");
		}
		if (change.eventsSet()) {
			set.append(", events = :events");
		}
		if (change.descriptionSet()) {
			set.append(", description = :description");
		}
		if ("enabled".equals(change.status())) {
			set.append(", status = 'enabled', disabled_reason = null, failing_since = null");
		}
		else if ("disabled".equals(change.status())) {
			set.append(", status = 'disabled', disabled_reason = case when status = 'disabled' "
					+ "then disabled_reason else 'Disabled by the partner' end");
		}
		DatabaseClient.GenericExecuteSpec spec = this.db.sql("""
				with changed as (
				    update webhooks set %s where id = :id and partner_id = :partnerId returning *
				), resumed as (
				    update webhook_deliveries d set next_attempt_at = :now
				    from changed c
				    where %s and d.webhook_id = c.id and d.status in ('pending', 'failing') and d.next_attempt_at > :now
				)
				select %s from changed
				""".formatted(set, "enabled".equals(change.status()), WebhookRow.COLUMNS))
			.bind("id", id)
			.bind("partnerId", partnerId)
			.bind("now", now);
		if (change.url() != null) {
			spec = spec.bind("url", change.url());
		}
		if (change.eventsSet()) {
			spec = Bindings.nullable(spec, "events", change.events(), String[].class);
		}
		if (change.descriptionSet()) {
			spec = Bindings.nullable(spec, "description", change.description(), String.class);
		}
		return spec.map(this::row).one();
	}

	/**
	 * Deletes the endpoint, whose deliveries {@link #deleteLogsOfDeleted} deletes later;
	 * whether it was there.
	 */
	Mono<Boolean> delete(UUID partnerId, UUID id, Instant now) {
		return this.db.sql("""
				with gone as (delete from webhooks where id = :id and partner_id = :partnerId returning id)
				insert into webhooks_deleted (id, deleted_at) select id, :now from gone
				""")
			.bind("id", id)
			.bind("partnerId", partnerId)
			.bind("now", now)
			.fetch()
			.rowsUpdated()
			.map((deleted) -> deleted > 0);
	}

	/** A new secret; the current one signs beside it until {@code until}. */
	Mono<WebhookRow> rotate(UUID partnerId, UUID id, byte[] secret, Instant now, Instant until) {
		return this.db
			.sql("""
					update webhooks set previous_secret = secret, previous_until = :until, secret = :secret, updated_at = :now
					where id = :id and partner_id = :partnerId
					returning %s
					"""
				.formatted(WebhookRow.COLUMNS))
			.bind("id", id)
			.bind("partnerId", partnerId)
			.bind("secret", secret)
			.bind("now", now)
			.bind("until", until)
			.map(this::row)
			.one();
	}

	/** The endpoint's deliveries, newest first, of one status or all. */
	Flux<DeliveryRow> deliveries(UUID webhookId, String status, Cursors.Position after, int limit) {
		String where = ((status != null) ? " and status = :status" : "")
				+ ((after != null) ? " and (created_at, id) < (:afterAt, :afterId)" : "");
		DatabaseClient.GenericExecuteSpec spec = this.db.sql("""
				select %s from webhook_deliveries where webhook_id = :webhookId%s
				order by created_at desc, id desc limit :limit
				""".formatted(DeliveryRow.COLUMNS, where)).bind("webhookId", webhookId).bind("limit", limit);
		if (status != null) {
			spec = spec.bind("status", status);
		}
		if (after != null) {
			spec = spec.bind("afterAt", after.at()).bind("afterId", after.id());
		}
		return spec.map(DeliveryRow::of).all();
	}

	/**
	 * Makes a delivery due now, with a new span of retries; in its user's order, it waits
	 * for the user's earlier open deliveries.
	 */
	Mono<DeliveryRow> redeliver(UUID webhookId, UUID deliveryId, Instant now) {
		return this.db.sql("""
				update webhook_deliveries set status = case when status = 'failing' then 'failing' else 'pending' end,
				    next_attempt_at = :now, first_attempt_at = null, leased_until = null
				where id = :id and webhook_id = :webhookId
				returning %s
				""".formatted(DeliveryRow.COLUMNS))
			.bind("id", deliveryId)
			.bind("webhookId", webhookId)
			.bind("now", now)
			.map(DeliveryRow::of)
			.one();
	}

	/** A {@code webhook.test} message to the endpoint, due now. */
	Mono<DeliveryRow> test(WebhookRow webhook, String data, Instant now) {
		return this.db.sql("""
				insert into webhook_deliveries (id, webhook_id, partner_id, message_id, event_type, data, occurred_at,
				                                status, next_attempt_at, created_at)
				values (gen_random_uuid(), :webhookId, :partnerId, 'msg_' || replace(gen_random_uuid()::text, '-', ''),
				        :type, :data, :now, 'pending', :now, :now)
				returning %s
				""".formatted(DeliveryRow.COLUMNS))
			.bind("webhookId", webhook.id())
			.bind("partnerId", webhook.partnerId())
			.bind("type", WebhookEvents.TEST)
			.bind("data", data)
			.bind("now", now)
			.map(DeliveryRow::of)
			.one();
	}

	/**
	 * Leases up to {@code webhooks} enabled endpoints of active partners that no instance
	 * holds until {@code lease}, and reads up to {@code changes} changes of each one's
	 * feed after its position: the messages to send, in feed order per endpoint, each
	 * with where the endpoint's position goes once they are recorded ({@link #record})
	 * and whether its user has open deliveries to the endpoint (then it waits behind
	 * them, as a delivery, unsent). Only changes below the horizon are read (as the feed
	 * reads them), so none can appear behind the position later. An endpoint with nothing
	 * to send among what it read (filtered out, or nothing new) is not leased: its
	 * position moves past what was read at once. One statement, its own transaction,
	 * committed without waiting for its WAL as the other {@link #bookkeeping}.
	 */
	Flux<FeedMessage> read(int webhooks, int changes, Instant now, Instant lease) {
		return this.db.sql(this.read)
			.bind("webhooks", webhooks)
			.bind("changes", changes)
			.bind("now", now)
			.bind("lease", lease)
			.map((row) -> {
				long txid = row.get("txid", Long.class);
				long seq = row.get("seq", Long.class);
				Claimed delivery = new Claimed(Ids.random(), row.get("webhook_id", UUID.class),
						row.get("partner_id", UUID.class), row.get("user_id", String.class), "msg_" + txid + "_" + seq,
						row.get("type", String.class), txid, seq, row.get("data", String.class),
						row.get("changed_at", Instant.class), 0, null, row.get("url", String.class),
						row.get("secret", byte[].class), row.get("previous_secret", byte[].class),
						row.get("previous_until", Instant.class), row.get("scopes", String[].class), lease);
				return new FeedMessage(delivery, row.get("end_txid", Long.class), row.get("end_seq", Long.class),
						Boolean.TRUE.equals(row.get("blocked", Boolean.class)));
			})
			.all();
	}

	/**
	 * What became of the messages {@link #read} returned under {@code lease}, in one
	 * statement: each endpoint still leased under it moves to its end position and is let
	 * go (no longer failing if one of its messages succeeded), and each of its messages
	 * becomes a delivery: succeeded ({@code at} and {@code code} set), open and leased
	 * (its attempt failed or is still under way: its outcome is recorded as a claimed
	 * delivery's), or open and waiting (not sent). An endpoint whose lease lapsed
	 * meanwhile records nothing: another instance reads its changes again.
	 */
	Mono<Void> record(List<Sent> sent, Instant lease, Instant now) {
		Map<UUID, Sent> ends = new LinkedHashMap<>();
		for (Sent message : sent) {
			ends.merge(message.message().delivery().webhookId(), message,
					(first, next) -> (next.code() != null) ? next : first);
		}
		List<Claimed> deliveries = sent.stream().map((message) -> message.message().delivery()).toList();
		return bookkeeping(this.db
			.sql("""
					with w as (
					    update webhooks w set after_txid = cast(cast(e.txid as text) as xid8), after_seq = e.seq,
					        leased_until = null, failing_since = case when e.code is not null then null else w.failing_since end
					    from unnest(cast(:endpoints as uuid[]), cast(:endTxids as bigint[]), cast(:endSeqs as bigint[]),
					                cast(:endCodes as bigint[])) as e(id, txid, seq, code)
					    where w.id = e.id and w.leased_until = :lease
					    returning w.id
					)
					insert into webhook_deliveries (id, webhook_id, partner_id, message_id, event_type, change_txid, change_seq,
					                                user_id, occurred_at, status, attempts, first_attempt_at, last_attempt_at,
					                                last_status_code, next_attempt_at, leased_until, created_at)
					select s.id, s.webhook_id, s.partner_id, s.message_id, s.type,
					       cast(cast(s.txid as text) as xid8), s.seq, s.user_id, s.occurred_at,
					       case when s.code is null then 'pending' else 'succeeded' end, case when s.code is null then 0 else 1 end,
					       s.at, s.at, s.code, case when s.code is null then cast(:now as timestamptz) end,
					       case when s.state = 'LEASED' then cast(:lease as timestamptz) end, :now
					from unnest(cast(:ids as uuid[]), cast(:webhookIds as uuid[]), cast(:partnerIds as uuid[]),
					            cast(:messageIds as text[]), cast(:types as text[]), cast(:txids as bigint[]), cast(:seqs as bigint[]), cast(:users as text[]),
					            cast(:occurred as timestamptz[]), cast(:ats as timestamptz[]), cast(:codes as bigint[]),
					            cast(:states as text[]))
					     as s(id, webhook_id, partner_id, message_id, type, txid, seq, user_id, occurred_at, at, code, state)
					where s.webhook_id in (select id from w)
					""")
			.bind("endpoints", ends.keySet().toArray(UUID[]::new))
			.bind("endTxids", ends.values().stream().map((end) -> end.message().endTxid()).toArray(Long[]::new))
			.bind("endSeqs", ends.values().stream().map((end) -> end.message().endSeq()).toArray(Long[]::new))
			.bind("endCodes", ends.values().stream().map((end) -> end.code()).toArray(Long[]::new))
			.bind("lease", lease)
			.bind("now", now)
			.bind("ids", deliveries.stream().map(Claimed::id).toArray(UUID[]::new))
			.bind("webhookIds", deliveries.stream().map(Claimed::webhookId).toArray(UUID[]::new))
			.bind("partnerIds", deliveries.stream().map(Claimed::partnerId).toArray(UUID[]::new))
			.bind("messageIds", deliveries.stream().map(Claimed::messageId).toArray(String[]::new))
			.bind("types", deliveries.stream().map(Claimed::eventType).toArray(String[]::new))
			.bind("txids", deliveries.stream().map(Claimed::txid).toArray(Long[]::new))
			.bind("seqs", deliveries.stream().map(Claimed::seq).toArray(Long[]::new))
			.bind("users", deliveries.stream().map(Claimed::userId).toArray(String[]::new))
			.bind("occurred", deliveries.stream().map(Claimed::occurredAt).toArray(Instant[]::new))
			.bind("ats", sent.stream().map(Sent::at).toArray(Instant[]::new))
			.bind("codes", sent.stream().map(Sent::code).toArray(Long[]::new))
			.bind("states", sent.stream().map((message) -> message.state().name()).toArray(String[]::new))
			.then());
	}

	/**
	 * {@code work} in a transaction that commits without waiting for its WAL to reach the
	 * disk: the deliveries' bookkeeping (what was turned into deliveries, leases,
	 * outcomes) is no partner's acknowledged write, and what a crash of PostgreSQL could
	 * take of it (its last fraction of a second) is made again or sent again, at least
	 * once, with the same {@code webhook-id}. The writes of partners keep their disk
	 * flushes to themselves. Its statements are planned for their values, not with the
	 * generic plan every other statement of a connection keeps: the delivery table starts
	 * empty and grows by a row a message, and a generic plan made while it was small
	 * scanned all of it for every outcome recorded once it was not (docs/design.md,
	 * Generic plans).
	 */
	<T> Mono<T> bookkeeping(Mono<T> work) {
		return this.db.sql("select " + BOOKKEEPING).then().then(work).as(this.transaction::transactional);
	}

	/**
	 * Leases deliveries that may be sent until {@code leasedUntil}: for each of the users
	 * with open deliveries to an enabled endpoint (found by skipping through the index,
	 * one probe a user), the run of up to {@code run} of them in the user's order that
	 * may go now (the first not due, leased, waiting for the feed or hidden by a pending
	 * erasure ends the run), up to {@code limit} in all; and up to {@code limit} due
	 * deliveries without a user. Claims of all instances take turns (a transaction lock;
	 * an instance that finds it taken claims nothing this time), so the statement sees
	 * every lease committed before it: no delivery is leased twice, and a user's run is
	 * always the start of its open deliveries.
	 */
	Flux<Claimed> claim(int limit, int run, Instant now, Instant leasedUntil) {
		return this.db
			.sql("select pg_try_advisory_xact_lock(hashtextextended('webhook claims', 14)) as mine, " + BOOKKEEPING)
			.map((row) -> Boolean.TRUE.equals(row.get("mine", Boolean.class)))
			.one()
			.flatMapMany((mine) -> mine ? this.db.sql(CLAIM)
				.bind("limit", limit)
				.bind("run", run)
				.bind("now", now)
				.bind("leasedUntil", leasedUntil)
				.map((row) -> new Claimed(row.get("id", UUID.class), row.get("webhook_id", UUID.class),
						row.get("partner_id", UUID.class), row.get("user_id", String.class),
						row.get("message_id", String.class), row.get("event_type", String.class),
						row.get("change_txid", Long.class), row.get("change_seq", Long.class),
						row.get("data", String.class), row.get("occurred_at", Instant.class),
						row.get("attempts", Integer.class), row.get("first_attempt_at", Instant.class),
						row.get("url", String.class), row.get("secret", byte[].class),
						row.get("previous_secret", byte[].class), row.get("previous_until", Instant.class),
						row.get("scopes", String[].class), leasedUntil))
				.all() : Flux.empty())
			.as(this.transaction::transactional);
	}

	/** The open deliveries of a user to an endpoint, in the order they go. */
	private static final String CLAIM = """
			with recursive ready as materialized (
			    select w.id from webhooks w join partners p on p.id = w.partner_id
			    where w.status = 'enabled' and p.status = 'active'
			), lanes as (
			    select r.id as webhook_id,
			           (select min(d.user_id) from webhook_deliveries d
			            where d.webhook_id = r.id and d.status in ('pending', 'failing') and d.user_id is not null) as user_id
			    from ready r
			    union all
			    select l.webhook_id,
			           (select min(d.user_id) from webhook_deliveries d
			            where d.webhook_id = l.webhook_id and d.status in ('pending', 'failing') and d.user_id > l.user_id)
			    from lanes l where l.user_id is not null
			), runs as (
			    select r.id from lanes l cross join lateral (
			        select o.id, bool_and(o.ok) over (order by o.change_txid, o.change_seq) as ok
			        from (select d.id, d.change_txid, d.change_seq,
			                     d.next_attempt_at <= :now and (d.leased_until is null or d.leased_until < :now)
			                     and (d.change_seq > 0 or (w.after_txid, w.after_seq) >= (d.change_txid, 0))
			                     and (d.event_type = 'user.erased' or not exists (
			                         select 1 from user_erasures x
			                         where x.partner_id = d.partner_id and x.user_id = d.user_id and x.status = 'pending'
			                           and d.change_txid < x.cutoff)) as ok
			              from webhook_deliveries d join webhooks w on w.id = d.webhook_id
			              where d.webhook_id = l.webhook_id and d.user_id = l.user_id and d.status in ('pending', 'failing')
			              order by d.change_txid, d.change_seq limit :run) o
			    ) r
			    where l.user_id is not null and r.ok
			    limit :limit
			), loners as (
			    select d.id from webhook_deliveries d
			    where d.user_id is null and d.status in ('pending', 'failing') and d.next_attempt_at <= :now
			      and (d.leased_until is null or d.leased_until < :now) and d.webhook_id in (select id from ready)
			    order by d.next_attempt_at limit :limit
			)
			update webhook_deliveries d set leased_until = :leasedUntil
			from webhooks w, partners p
			where d.id in (select id from runs union all select id from loners)
			  and w.id = d.webhook_id and p.id = w.partner_id
			returning d.id, d.webhook_id, d.user_id, d.message_id, d.event_type,
			          d.change_txid::text::bigint as change_txid, d.change_seq,
			          coalesce(d.data, (select '{"change_id":"' || c.txid::text || '.' || c.seq || '",' || c.item
			                            from changes c where c.partner_id = d.partner_id and c.txid = d.change_txid
			                              and c.seq = d.change_seq)) as data,
			          d.occurred_at, d.attempts, d.first_attempt_at,
			          w.url, w.secret, w.previous_secret, w.previous_until, p.id as partner_id, p.scopes
			""";

	/**
	 * A user's run ended at a failed attempt: the rest of it goes back, unsent, to wait
	 * behind it.
	 */
	Mono<Void> release(List<Claimed> rest) {
		if (rest.isEmpty()) {
			return Mono.empty();
		}
		return bookkeeping(this.db
			.sql("update webhook_deliveries set leased_until = null where id = any(:ids) and leased_until = :lease")
			.bind("ids", rest.stream().map(Claimed::id).toArray(UUID[]::new))
			.bind("lease", rest.get(0).leasedUntil())
			.then());
	}

	/**
	 * Attempts that succeeded ({@code at} and {@code codes} of each): the deliveries are
	 * done, and their endpoints no longer failing.
	 */
	Mono<Void> succeeded(List<Claimed> deliveries, List<Instant> at, List<Integer> codes) {
		return bookkeeping(this.db
			.sql("""
					with done as (
					    update webhook_deliveries d set status = 'succeeded', attempts = attempts + 1,
					        first_attempt_at = coalesce(first_attempt_at, s.at), last_attempt_at = s.at,
					        last_status_code = s.code, last_error = null, next_attempt_at = null, leased_until = null
					    from unnest(cast(:ids as uuid[]), cast(:ats as timestamptz[]), cast(:codes as int[])) as s(id, at, code)
					    where d.id = s.id and d.leased_until = :lease
					    returning d.webhook_id
					)
					update webhooks w set failing_since = null
					where w.id in (select webhook_id from done) and w.failing_since is not null
					""")
			.bind("ids", deliveries.stream().map(Claimed::id).toArray(UUID[]::new))
			.bind("ats", at.toArray(Instant[]::new))
			.bind("codes", codes.toArray(Integer[]::new))
			.bind("lease", deliveries.get(0).leasedUntil())
			.then());
	}

	/**
	 * The attempt failed ({@code statusCode} null when no answer came): tried again at
	 * {@code retryAt}, or given up when that is null. An endpoint whose attempts have all
	 * failed since {@code disableBefore} or earlier is disabled.
	 */
	Mono<Void> failed(Claimed delivery, Instant at, Integer statusCode, String error, Instant retryAt,
			Instant disableBefore) {
		DatabaseClient.GenericExecuteSpec spec = this.db
			.sql("""
					with done as (
					    update webhook_deliveries set status = case when cast(:retryAt as timestamptz) is null then 'given_up' else 'failing' end,
					        attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, :at), last_attempt_at = :at,
					        last_status_code = :code, last_error = :error, next_attempt_at = :retryAt, leased_until = null
					    where id = :id and leased_until = :lease
					    returning webhook_id
					)
					update webhooks w set failing_since = coalesce(w.failing_since, :at),
					    status = case when coalesce(w.failing_since, :at) <= :disableBefore then 'disabled' else w.status end,
					    disabled_reason = case when w.status = 'enabled' and coalesce(w.failing_since, :at) <= :disableBefore
					        then 'Every attempt failed from ' || api_time(w.failing_since) || ' to ' || api_time(:at)
					        else w.disabled_reason end,
					    updated_at = case when w.status = 'enabled' and coalesce(w.failing_since, :at) <= :disableBefore
					        then :at else w.updated_at end
					from done where w.id = done.webhook_id
					""")
			.bind("id", delivery.id())
			.bind("lease", delivery.leasedUntil())
			.bind("at", at)
			.bind("error", error)
			.bind("disableBefore", disableBefore);
		spec = Bindings.nullable(spec, "code", statusCode, Integer.class);
		return bookkeeping(Bindings.nullable(spec, "retryAt", retryAt, Instant.class).then());
	}

	/**
	 * Deletes up to {@code batch} deliveries of deleted endpoints; returns how many. An
	 * endpoint deleted before {@code forgetBefore} whose deliveries are all gone is
	 * forgotten (kept until then for a delivery a statement under way at its deletion
	 * might still have written).
	 */
	Mono<Long> deleteLogsOfDeleted(Instant forgetBefore, int batch) {
		return this.db.sql("""
				with batch as (
				    select d.id from webhooks_deleted x cross join lateral (
				        select d.id from webhook_deliveries d where d.webhook_id = x.id limit :batch
				    ) d
				    limit :batch
				), gone as (
				    delete from webhook_deliveries where id in (select id from batch) returning 1
				), forgotten as (
				    delete from webhooks_deleted x
				    where x.deleted_at < :forgetBefore
				      and not exists (select 1 from webhook_deliveries d where d.webhook_id = x.id)
				)
				select count(*) from gone
				""").bind("forgetBefore", forgetBefore).bind("batch", batch).map((row) -> row.get(0, Long.class)).one();
	}

	/**
	 * Deletes up to {@code batch} finished deliveries (succeeded or given up) made before
	 * {@code before}, the oldest of each endpoint first through the log's index; returns
	 * how many. Open ones stay, whatever their age.
	 */
	Mono<Long> deleteFinishedBefore(Instant before, int batch) {
		return this.db.sql("""
				delete from webhook_deliveries where id in (
				    select o.id from webhooks w cross join lateral (
				        select d.id from webhook_deliveries d
				        where d.webhook_id = w.id and d.created_at < :before and d.status in ('succeeded', 'given_up')
				        order by d.created_at limit :batch
				    ) o
				    limit :batch
				)
				""").bind("before", before).bind("batch", batch).fetch().rowsUpdated();
	}

	/**
	 * A message that may no longer be sent (its change no longer kept, or the partner no
	 * longer holding the scope to read it): given up without an attempt, {@code why} in
	 * its log; the endpoint's state is not touched, since the endpoint did nothing wrong.
	 */
	Mono<Void> notSent(Claimed delivery, String why) {
		return bookkeeping(this.db.sql("""
				update webhook_deliveries set status = 'given_up', last_error = :why, next_attempt_at = null,
				    leased_until = null
				where id = :id and leased_until = :lease
				""").bind("id", delivery.id()).bind("lease", delivery.leasedUntil()).bind("why", why).then());
	}

	/**
	 * The endpoint answered {@code 410 Gone}: it is disabled at once, and the delivery
	 * waits, due, for it to be enabled again.
	 */
	Mono<Void> gone(Claimed delivery, Instant at) {
		return bookkeeping(this.db
			.sql("""
					with done as (
					    update webhook_deliveries set status = 'failing', attempts = attempts + 1,
					        first_attempt_at = coalesce(first_attempt_at, :at), last_attempt_at = :at, last_status_code = 410,
					        last_error = '410 Gone: the endpoint was disabled', next_attempt_at = :at, leased_until = null
					    where id = :id and leased_until = :lease
					    returning webhook_id
					)
					update webhooks w set status = 'disabled', updated_at = :at,
					    disabled_reason = 'The endpoint answered 410 Gone at ' || api_time(:at)
					from done where w.id = done.webhook_id and w.status = 'enabled'
					""")
			.bind("id", delivery.id())
			.bind("lease", delivery.leasedUntil())
			.bind("at", at)
			.then());
	}

	private WebhookRow row(Readable row) {
		return WebhookRow.of(row, this.allEvents);
	}

	/**
	 * What a {@code PATCH} sets: {@code url} and {@code status} when not null, the others
	 * when their {@code *Set} flag is (null: every event, no description).
	 */
	record Change(String url, boolean eventsSet, String[] events, boolean descriptionSet, String description,
			String status) {
	}

	/**
	 * A message {@link #read} from the feed to send: the delivery it becomes, where its
	 * endpoint's position goes once recorded, and whether its user has open deliveries to
	 * the endpoint (then it is not sent now but waits behind them).
	 */
	record FeedMessage(Claimed delivery, long endTxid, long endSeq, boolean blocked) {
	}

	/**
	 * What became of a {@link FeedMessage} by the time it is recorded: {@code at} and
	 * {@code code} of its successful attempt, or none and its delivery {@code leased} (an
	 * attempt failed or under way) or {@code waiting}.
	 */
	record Sent(FeedMessage message, Instant at, Long code, State state) {

		enum State {

			SUCCEEDED, LEASED, WAITING

		}

	}

	/**
	 * A leased delivery and what sending it needs; {@code txid} and {@code seq} its place
	 * in its user's order (null without a user), a change of the feed when {@code seq} is
	 * above 0.
	 */
	record Claimed(UUID id, UUID webhookId, UUID partnerId, String userId, String messageId, String eventType,
			Long txid, Long seq, String data, Instant occurredAt, int attempts, Instant firstAttemptAt, String url,
			byte[] secret, byte[] previousSecret, Instant previousUntil, String[] scopes, Instant leasedUntil) {
	}

}
