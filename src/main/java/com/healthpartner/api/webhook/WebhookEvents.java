package com.healthpartner.api.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.records.RecordKind;

/**
 * The events an endpoint may ask for, from the record kinds: each kind's changes
 * ({@code metrics.created}, {@code .updated}, {@code .deleted}), a user's erasure
 * requested ({@code user.erased}, a change of the feed too) and completed
 * ({@code erasure.completed}), and an import completed ({@code import.completed}).
 * {@code webhook.test} is sent only on request.
 */
final class WebhookEvents {

	static final String TEST = "webhook.test";

	static final String USER_ERASED = "user.erased";

	static final String IMPORT_COMPLETED = "import.completed";

	static final String ERASURE_COMPLETED = "erasure.completed";

	private final List<String> all;

	private final List<RecordKind> kinds;

	WebhookEvents(List<RecordKind> kinds) {
		this.kinds = kinds;
		List<String> all = new ArrayList<>();
		for (RecordKind kind : kinds) {
			for (String change : List.of("created", "updated", "deleted")) {
				all.add(kind.resource() + "." + change);
			}
		}
		all.addAll(List.of(USER_ERASED, IMPORT_COMPLETED, ERASURE_COMPLETED));
		this.all = List.copyOf(all);
	}

	List<String> all() {
		return this.all;
	}

	/** Every kind's read scope: a partner holding none of them is sent nothing. */
	List<Scope> readScopes() {
		return this.kinds.stream().map(RecordKind::read).toList();
	}

	/**
	 * The read scope a partner must hold for a message of {@code eventType} to be sent:
	 * the kind's ({@code metrics:read}) for a change of records of a kind, else null (any
	 * read scope: a user's erasure, an import or a test).
	 */
	Scope scopeNeeded(String eventType) {
		for (RecordKind kind : this.kinds) {
			if (eventType.startsWith(kind.resource() + ".")) {
				return kind.read();
			}
		}
		return null;
	}

	/**
	 * Whether a partner holding {@code scopes} may be sent a message of {@code eventType}
	 * (section 12: events of a resource only while the partner holds its read scope; the
	 * others while it holds one of them).
	 */
	boolean permits(String eventType, Set<Scope> scopes) {
		Scope needed = scopeNeeded(eventType);
		return (needed != null) ? scopes.contains(needed) : readScopes().stream().anyMatch(scopes::contains);
	}

}
