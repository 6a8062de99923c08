package com.healthpartner.api.partner;

import java.time.Instant;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.KeysetPages;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.system.Bindings;
import com.healthpartner.api.system.Filters;

@Repository
class RegistrationRepository {

	private final DatabaseClient db;

	RegistrationRepository(DatabaseClient db) {
		this.db = db;
	}

	Mono<RegistrationRow> insert(RegistrationRow row) {
		return this.db.sql("""
				insert into registrations (id, email, partner_name, status, created_at)
				values (:id, :email, :partnerName, 'pending', :createdAt)
				""")
			.bind("id", row.id())
			.bind("email", row.email())
			.bind("partnerName", row.partnerName())
			.bind("createdAt", row.createdAt())
			.then()
			.thenReturn(row)
			.onErrorMap(DataIntegrityViolationException.class, (ex) -> new ApiException(ProblemType.REGISTRATION_EXISTS,
					"A pending or approved registration already has this email"));
	}

	Flux<RegistrationRow> list(RegistrationStatus status, Cursors.Position after, int limit) {
		Filters filters = new Filters().when(status, "status = :status", "status",
				(status != null) ? status.value() : null);
		return KeysetPages.select(this.db, "registrations", "created_at", filters, after, limit)
			.map(RegistrationRepository::row)
			.all();
	}

	Mono<RegistrationRow> find(UUID id) {
		return this.db.sql("select * from registrations where id = :id")
			.bind("id", id)
			.map(RegistrationRepository::row)
			.one();
	}

	/**
	 * Moves a pending registration on; empty when it was not pending (someone decided
	 * first).
	 */
	Mono<RegistrationRow> decide(UUID id, RegistrationStatus status, String reason, UUID partnerId, Instant at) {
		DatabaseClient.GenericExecuteSpec spec = this.db.sql("""
				update registrations set status = :status, reason = :reason, partner_id = :partnerId, decided_at = :at
				where id = :id and status = 'pending'
				returning *
				""").bind("id", id).bind("status", status.value()).bind("at", at);
		spec = Bindings.nullable(spec, "reason", reason, String.class);
		spec = Bindings.nullable(spec, "partnerId", partnerId, UUID.class);
		return spec.map(RegistrationRepository::row).one();
	}

	private static RegistrationRow row(Readable row) {
		return new RegistrationRow(row.get("id", UUID.class), row.get("email", String.class),
				row.get("partner_name", String.class),
				RegistrationStatus.of(row.get("status", String.class)).orElseThrow(), row.get("reason", String.class),
				row.get("partner_id", UUID.class), row.get("created_at", Instant.class),
				row.get("decided_at", Instant.class));
	}

}
