package com.healthpartner.api.webhook;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.system.Bindings;

/**
 * The endpoints and their deliveries (V37). Deliveries are made from the change feed by
 * {@link #dispatch}, claimed by an instance with a lease by {@link #claim}, and their
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

	private final String dispatch;

	WebhookRepository(DatabaseClient db, TransactionalOperator transaction, WebhookEvents events) {
		this.db = db;
		this.transaction = transaction;
		this.allEvents = events.all();
		String anyRead = events.readScopes()
			.stream()
			.map((scope) -> "'" + scope.value() + "'")
			.collect(java.util.stream.Collectors.joining(", ", "array[", "]"));
		this.dispatch = """
				with h as materialized (
				    select pg_snapshot_xmin(pg_current_snapshot()) as horizon,
				           %s as bookkeeping
				), ep as materialized (
				    select w.id, w.partner_id, w.after_txid, w.after_seq, w.events, p.scopes
				    from webhooks w join partners p on p.id = w.partner_id
				    where w.status = 'enabled' and (w.after_txid < (select horizon from h))
				    order by w.id limit :webhooks
				    for update of w skip locked
				), c as materialized (
				    select w.id as webhook_id, w.partner_id, w.events, w.scopes, c.txid, c.seq, c.kind, c.resource,
				           c.user_id, c.item, c.changed_at,
				           case when c.kind = 'user_erased' then 'user.erased' else c.resource || '.' || c.kind end as type
				    from ep w cross join lateral (
				        select c.txid, c.seq, c.kind, c.resource, c.user_id, c.item, c.changed_at
				        from changes c
				        where c.partner_id = w.partner_id and (c.txid, c.seq) > (w.after_txid, w.after_seq)
				          and c.txid < (select horizon from h)
				        order by c.txid, c.seq limit :changes) c
				), made as (
				    insert into webhook_deliveries (id, webhook_id, partner_id, message_id, event_type, change_txid,
				                                    change_seq, user_id, data, occurred_at, status, next_attempt_at,
				                                    created_at)
				    select gen_random_uuid(), c.webhook_id, c.partner_id, 'msg_' || c.txid::text || '_' || c.seq, c.type,
				           c.txid, c.seq, c.user_id, null, c.changed_at, 'pending', :now, :now
				    from c
				    where (c.events is null or c.type = any(c.events))
				      and (c.kind = 'user_erased' and c.scopes && %s or (c.resource || ':read') = any(c.scopes))
				      and (c.kind = 'user_erased' or not exists (
				          select 1 from user_erasures x
				          where x.partner_id = c.partner_id and x.user_id = c.user_id and x.status = 'pending'
				            and c.txid < x.cutoff))
				    order by c.txid, c.seq
				    returning 1
				), moved as (
				    update webhooks w set after_txid = greatest(w.after_txid, coalesce(m.txid, (select horizon from h))),
				                          after_seq = case when m.txid is null then 0 else m.seq end
				    from (select ep.id, l.txid, l.seq from ep left join lateral (
				              select c.txid, c.seq from c where c.webhook_id = ep.id order by c.txid desc, c.seq desc limit 1) l
				              on true) m
				    where w.id = m.id
				    returning 1
				)
				select (select count(*) from made) as made, (select count(*) from c) as read
				"""
			.formatted(ASYNC_COMMIT, anyRead);
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
	 * Turns up to {@code changes} new changes of the feed of each of up to
	 * {@code webhooks} enabled endpoints (that no other instance is turning) into
	 * deliveries, and moves each endpoint's position past them, in one statement: a
	 * change becomes a delivery exactly once. Only changes below the horizon are read (as
	 * the feed reads them), so none can appear behind the position later. How many
	 * changes were read. The statement is its own transaction, committed without waiting
	 * for its WAL as the other {@link #bookkeeping} (set by its first CTE): one round
	 * trip a sweep, where a transaction around it took four, ten times a second while
	 * idle.
	 */
	Mono<Long> dispatch(int webhooks, int changes, Instant now) {
		return this.db.sql(this.dispatch)
			.bind("webhooks", webhooks)
			.bind("changes", changes)
			.bind("now", now)
			.map((row) -> row.get("read", Long.class))
			.one();
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
	 * A leased delivery and what sending it needs; {@code txid} and {@code seq} its place
	 * in its user's order (null without a user), a change of the feed when {@code seq} is
	 * above 0.
	 */
	record Claimed(UUID id, UUID webhookId, UUID partnerId, String userId, String messageId, String eventType,
			Long txid, Long seq, String data, Instant occurredAt, int attempts, Instant firstAttemptAt, String url,
			byte[] secret, byte[] previousSecret, Instant previousUntil, String[] scopes, Instant leasedUntil) {
	}

}
