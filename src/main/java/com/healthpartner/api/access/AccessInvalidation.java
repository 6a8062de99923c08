package com.healthpartner.api.access;

import java.util.UUID;

import reactor.core.publisher.Mono;

/**
 * Tells the access layer that a partner's keys, status, plan or scopes changed, so that
 * the change applies to its next request here; other instances learn it through
 * PostgreSQL {@code NOTIFY}.
 */
public interface AccessInvalidation {

	Mono<Void> partnerChanged(UUID partnerId);

}
