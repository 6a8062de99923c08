package com.healthpartner.api.changes;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.records.RecordKind;

/**
 * What a change-feed cursor holds for: the partner and which kinds of record are read (a
 * cursor of one set of kinds is refused with another). The feed and the webhook messages
 * that carry a cursor make it from this.
 */
public final class FeedCursors {

	private FeedCursors() {
	}

	public static String scope(UUID partnerId, Set<Scope> scopes, List<RecordKind> kinds) {
		StringBuilder scope = new StringBuilder(ChangesHandler.PATH).append('|').append(partnerId);
		for (RecordKind kind : kinds) {
			scope.append('|').append(scopes.contains(kind.read()));
		}
		return scope.toString();
	}

}
