package com.healthpartner.api.support;

import java.util.List;

import com.healthpartner.api.RecordKinds;
import com.healthpartner.api.records.RecordKind;

/**
 * Every kind of record, for tests that hold for each kind alike:
 * {@code @MethodSource("com.healthpartner.api.support.Kinds#all")}.
 */
public final class Kinds {

	private Kinds() {
	}

	/** The service's own list ({@code RecordKinds}), so a new kind is tested at once. */
	public static List<RecordKind> all() {
		return RecordKinds.all();
	}

	/** A valid body of a POST of {@code kind} for {@code user}. */
	public static String body(RecordKind kind, String user) {
		String content = kind.dated() ? "{\"weight\": 70}" : "{\"a\": 1}";
		return "{\"user_id\": \"" + user + "\", \"" + kind.content() + "\": " + content + "}";
	}

}
