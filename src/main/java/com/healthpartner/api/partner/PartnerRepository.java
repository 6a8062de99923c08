package com.healthpartner.api.partner;

import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.access.PartnerStatus;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.KeysetPages;
import com.healthpartner.api.system.Bindings;
import com.healthpartner.api.system.Filters;

@Repository
class PartnerRepository {

	private final DatabaseClient db;

	PartnerRepository(DatabaseClient db) {
		this.db = db;
	}

	Mono<PartnerRow> insert(PartnerRow row) {
		return this.db
			.sql("""
					insert into partners (id, registration_id, partner_name, email, plan, status, scopes, signing_required, created_at)
					values (:id, :registrationId, :partnerName, :email, :plan, :status, :scopes, :signingRequired, :createdAt)
					""")
			.bind("id", row.id())
			.bind("registrationId", row.registrationId())
			.bind("partnerName", row.partnerName())
			.bind("email", row.email())
			.bind("plan", row.plan())
			.bind("status", row.status().value())
			.bind("scopes", row.scopes().toArray(String[]::new))
			.bind("signingRequired", row.signingRequired())
			.bind("createdAt", row.createdAt())
			.then()
			.thenReturn(row);
	}

	Mono<PartnerRow> find(UUID id) {
		return this.db.sql("select * from partners where id = :id").bind("id", id).map(PartnerRepository::row).one();
	}

	Flux<PartnerRow> list(Cursors.Position after, int limit) {
		return KeysetPages.select(this.db, "partners", "created_at", new Filters(), after, limit)
			.map(PartnerRepository::row)
			.all();
	}

	/**
	 * Applies the fields an administrator sent (and only those, in one statement, so that
	 * a concurrent change of other fields is kept), and tells every instance in the same
	 * transaction. Empty when there is no such partner.
	 */
	Mono<PartnerRow> update(UUID id, PartnerChange change) {
		DatabaseClient.GenericExecuteSpec spec = this.db
			.sql("""
					update partners set plan = coalesce(:plan, plan), scopes = coalesce(:scopes, scopes),
					       status = coalesce(:status, status), signing_required = coalesce(:signingRequired, signing_required)
					where id = :id
					returning *
					""")
			.bind("id", id);
		spec = Bindings.nullable(spec, "plan", change.plan(), String.class);
		spec = Bindings.nullable(spec, "scopes",
				(change.scopes() != null) ? change.scopes().toArray(String[]::new) : null, String[].class);
		spec = Bindings.nullable(spec, "status", (change.status() != null) ? change.status().value() : null,
				String.class);
		spec = Bindings.nullable(spec, "signingRequired", change.signingRequired(), Boolean.class);
		return spec.map(PartnerRepository::row).one().flatMap((row) -> notifyChanged(row.id()).thenReturn(row));
	}

	/**
	 * {@code NOTIFY} is delivered at commit, so other instances never see a change that
	 * rolled back.
	 */
	Mono<Void> notifyChanged(UUID partnerId) {
		return this.db.sql("select pg_notify('access_changed', :partnerId)")
			.bind("partnerId", partnerId.toString())
			.then();
	}

	private static PartnerRow row(Readable row) {
		return new PartnerRow(row.get("id", UUID.class), row.get("registration_id", UUID.class),
				row.get("partner_name", String.class), row.get("email", String.class), row.get("plan", String.class),
				PartnerStatus.of(row.get("status", String.class)).orElseThrow(),
				Arrays.asList(row.get("scopes", String[].class)),
				Boolean.TRUE.equals(row.get("signing_required", Boolean.class)), row.get("created_at", Instant.class));
	}

}
