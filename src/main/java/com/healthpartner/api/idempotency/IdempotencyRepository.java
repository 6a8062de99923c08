package com.healthpartner.api.idempotency;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.system.Bindings;

/**
 * Stored idempotency keys. The unique key (partner, endpoint, key) settles races: of two
 * requests claiming one key, exactly one inserts (or takes over an expired or abandoned
 * row); the other finds the row and is answered from it.
 */
@Repository
class IdempotencyRepository {

	private final DatabaseClient db;

	IdempotencyRepository(DatabaseClient db) {
		this.db = db;
	}

	/**
	 * Claims the key for this request: true when the claim is this request's (the key was
	 * free, expired, or abandoned by a request that did not finish in time).
	 */
	Mono<Boolean> claim(KeyId id, byte[] requestHash, UUID token, Instant now, Instant claimedUntil,
			Instant expiresAt) {
		return this.db.sql("""
				insert into idempotency_keys (partner_id, endpoint, idempotency_key, request_hash, claim_token,
				    claimed_until, created_at, expires_at)
				values (:partnerId, :endpoint, :key, :requestHash, :token, :claimedUntil, :now, :expiresAt)
				on conflict (partner_id, endpoint, idempotency_key) do update
				set request_hash = excluded.request_hash, claim_token = excluded.claim_token,
				    claimed_until = excluded.claimed_until, created_at = excluded.created_at,
				    expires_at = excluded.expires_at, status = null, location = null, body = null
				where idempotency_keys.expires_at <= :now
				   or (idempotency_keys.status is null and idempotency_keys.claimed_until <= :now)
				returning claim_token
				""")
			.bindValues(id.parameters())
			.bind("requestHash", requestHash)
			.bind("token", token)
			.bind("claimedUntil", claimedUntil)
			.bind("now", now)
			.bind("expiresAt", expiresAt)
			.map((row) -> token.equals(row.get("claim_token", UUID.class)))
			.one()
			.defaultIfEmpty(false);
	}

	Mono<StoredKey> find(KeyId id, Instant now) {
		return this.db.sql("""
				select request_hash, status, location, body, record_outcome from idempotency_keys
				where partner_id = :partnerId and endpoint = :endpoint and idempotency_key = :key
				  and expires_at > :now
				""").bindValues(id.parameters()).bind("now", now).map(IdempotencyRepository::stored).one();
	}

	/**
	 * Stores the answer of the claim's request; run in the transaction that writes the
	 * record, so that both or neither are kept. Empty when the claim was lost.
	 */
	Mono<Long> complete(KeyId id, UUID token, int status, String location, String body, String outcome) {
		DatabaseClient.GenericExecuteSpec spec = this.db.sql("""
				update idempotency_keys set status = :status, location = :location, body = :body,
				    record_outcome = :outcome, claimed_until = null
				where partner_id = :partnerId and endpoint = :endpoint and idempotency_key = :key
				  and claim_token = :token and status is null
				""")
			.bindValues(id.parameters())
			.bind("token", token)
			.bind("status", status)
			.bind("body", body)
			.bind("outcome", outcome);
		return Bindings.nullable(spec, "location", location, String.class)
			.fetch()
			.rowsUpdated()
			.filter((count) -> count == 1);
	}

	/** Gives up a claim whose request failed: the key may be used again at once. */
	Mono<Void> release(KeyId id, UUID token) {
		return this.db.sql("""
				delete from idempotency_keys
				where partner_id = :partnerId and endpoint = :endpoint and idempotency_key = :key
				  and claim_token = :token and status is null
				""").bindValues(id.parameters()).bind("token", token).then();
	}

	/** Deletes up to {@code batch} keys that expired; returns how many. */
	Mono<Long> deleteExpired(Instant now, int batch) {
		return this.db.sql("""
				delete from idempotency_keys where ctid in (
				    select ctid from idempotency_keys where expires_at <= :now limit :batch)
				""").bind("now", now).bind("batch", batch).fetch().rowsUpdated();
	}

	private static StoredKey stored(Readable row) {
		return new StoredKey(row.get("request_hash", byte[].class), row.get("status", Integer.class),
				row.get("location", String.class), row.get("body", String.class),
				row.get("record_outcome", String.class));
	}

	/** One key of one partner on one endpoint. */
	record KeyId(UUID partnerId, String endpoint, String key) {

		/** The named parameters that find the key's row. */
		Map<String, Object> parameters() {
			return Map.of("partnerId", this.partnerId, "endpoint", this.endpoint, "key", this.key);
		}

	}

}
