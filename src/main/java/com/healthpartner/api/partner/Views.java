package com.healthpartner.api.partner;

import java.util.List;
import java.util.UUID;

import com.healthpartner.api.credential.KeyRow;
import com.healthpartner.api.json.Timestamps;

/**
 * What partners and administrators see; mapped from rows, never the rows themselves.
 */
final class Views {

	private Views() {
	}

	record Registration(UUID registrationId, String status, String email, String partnerName, String createdAt) {

		static Registration of(RegistrationRow row) {
			return new Registration(row.id(), row.status().value(), row.email(), row.partnerName(),
					Timestamps.format(row.createdAt()));
		}

	}

	record AdminRegistration(UUID registrationId, String status, String email, String partnerName, String createdAt,
			String decidedAt, String reason, UUID partnerId) {

		static AdminRegistration of(RegistrationRow row) {
			return new AdminRegistration(row.id(), row.status().value(), row.email(), row.partnerName(),
					Timestamps.format(row.createdAt()), Timestamps.format(row.decidedAt()), row.reason(),
					row.partnerId());
		}

	}

	record Key(UUID keyId, String prefix, List<String> scopes, String createdAt, String lastUsedAt, String expiresAt,
			String revokedAt) {

		static Key of(KeyRow row) {
			return new Key(row.id(), row.prefix(), row.scopes().stream().sorted().toList(),
					Timestamps.format(row.createdAt()), Timestamps.format(row.lastUsedAt()),
					Timestamps.format(row.expiresAt()), Timestamps.format(row.revokedAt()));
		}

	}

	record Partner(UUID partnerId, String partnerName, String email, String plan, String status, List<String> scopes,
			boolean signingRequired, String createdAt, List<Key> keys) {

		static Partner of(PartnerRow row, List<KeyRow> keys) {
			return new Partner(row.id(), row.partnerName(), row.email(), row.plan(), row.status().value(),
					row.scopes().stream().sorted().toList(), row.signingRequired(), Timestamps.format(row.createdAt()),
					keys.stream().map(Key::of).toList());
		}

	}

	/** Shown once, when a key is issued; never stored in clear and never shown again. */
	record IssuedCredentials(UUID partnerId, UUID keyId, String apiKey, String apiSecret, String plan,
			List<String> scopes, String expiresAt) {
	}

}
