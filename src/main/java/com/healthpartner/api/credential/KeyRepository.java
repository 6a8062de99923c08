package com.healthpartner.api.credential;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.PartnerStatus;
import com.healthpartner.api.access.Scope;
import com.healthpartner.api.system.Bindings;

@Repository
class KeyRepository {

	private final DatabaseClient db;

	KeyRepository(DatabaseClient db) {
		this.db = db;
	}

	Mono<KeyRow> insert(KeyRow row) {
		DatabaseClient.GenericExecuteSpec spec = this.db
			.sql("""
					insert into api_keys (id, partner_id, key_hash, prefix, secret_ciphertext, scopes, created_at, expires_at)
					values (:id, :partnerId, :keyHash, :prefix, :secret, :scopes, :createdAt, :expiresAt)
					""")
			.bind("id", row.id())
			.bind("partnerId", row.partnerId())
			.bind("keyHash", row.keyHash())
			.bind("prefix", row.prefix())
			.bind("secret", row.secretCiphertext())
			.bind("scopes", row.scopes().toArray(String[]::new))
			.bind("createdAt", row.createdAt());
		return Bindings.nullable(spec, "expiresAt", row.expiresAt(), Instant.class).then().thenReturn(row);
	}

	Flux<KeyRow> findByPartner(UUID partnerId) {
		return this.db.sql("select * from api_keys where partner_id = :partnerId order by created_at, id")
			.bind("partnerId", partnerId)
			.map(KeyRepository::row)
			.all();
	}

	/**
	 * The keys of several partners in one query, each partner's in the order of
	 * {@link #findByPartner}; the ids travel as text and are cast in SQL.
	 */
	Flux<KeyRow> findByPartners(List<UUID> partnerIds) {
		if (partnerIds.isEmpty()) {
			return Flux.empty();
		}
		return this.db.sql("""
				select * from api_keys where partner_id = any(cast(:partnerIds as uuid[]))
				order by partner_id, created_at, id
				""")
			.bind("partnerIds", partnerIds.stream().map(UUID::toString).toArray(String[]::new))
			.map(KeyRepository::row)
			.all();
	}

	/**
	 * Revokes a key of this partner; empty when the partner has no such key. Revoking
	 * twice keeps the first time.
	 */
	Mono<KeyRow> revoke(UUID partnerId, UUID keyId, Instant at) {
		return this.db.sql("""
				update api_keys set revoked_at = coalesce(revoked_at, :at)
				where partner_id = :partnerId and id = :keyId
				returning *
				""").bind("partnerId", partnerId).bind("keyId", keyId).bind("at", at).map(KeyRepository::row).one();
	}

	Mono<ApiPrincipal> findByHash(byte[] keyHash) {
		return this.db
			.sql("""
					select k.id as key_id, k.scopes as key_scopes, k.expires_at, k.secret_ciphertext,
					       p.id as partner_id, p.partner_name, p.plan, p.status, p.scopes as partner_scopes, p.signing_required
					from api_keys k join partners p on p.id = k.partner_id
					where k.key_hash = :keyHash and k.revoked_at is null
					""")
			.bind("keyHash", keyHash)
			.map((row) -> {
				Set<Scope> scopes = Scope.parse(row.get("key_scopes", String[].class));
				scopes.retainAll(Scope.parse(row.get("partner_scopes", String[].class)));
				return new ApiPrincipal(row.get("partner_id", UUID.class), row.get("partner_name", String.class),
						row.get("plan", String.class), PartnerStatus.of(row.get("status", String.class)).orElseThrow(),
						row.get("key_id", UUID.class), scopes,
						Boolean.TRUE.equals(row.get("signing_required", Boolean.class)),
						row.get("expires_at", Instant.class), row.get("secret_ciphertext", byte[].class));
			})
			.one();
	}

	Mono<Void> recordUse(Map<UUID, Instant> lastUsed) {
		if (lastUsed.isEmpty()) {
			return Mono.empty();
		}
		// arrays travel as text and are cast in SQL, which every driver version binds the
		// same way
		String[] ids = lastUsed.keySet().stream().map(UUID::toString).toArray(String[]::new);
		String[] times = Arrays.stream(ids)
			.map((id) -> lastUsed.get(UUID.fromString(id)).toString())
			.toArray(String[]::new);
		return this.db.sql("""
				update api_keys k set last_used_at = greatest(coalesce(k.last_used_at, u.at), u.at)
				from unnest(cast(:ids as uuid[]), cast(:times as timestamptz[])) as u(id, at)
				where k.id = u.id
				""").bind("ids", ids).bind("times", times).then();
	}

	private static KeyRow row(Readable row) {
		return new KeyRow(row.get("id", UUID.class), row.get("partner_id", UUID.class),
				row.get("key_hash", byte[].class), row.get("prefix", String.class),
				row.get("secret_ciphertext", byte[].class), Arrays.asList(row.get("scopes", String[].class)),
				row.get("created_at", Instant.class), row.get("last_used_at", Instant.class),
				row.get("expires_at", Instant.class), row.get("revoked_at", Instant.class));
	}

}
