package com.healthpartner.api.changes;

/**
 * One kind of health record as the change feed shows it: each record feature renders the
 * record of its {@code created} and {@code updated} changes with its own view, so that
 * the feed shows exactly what a read of the record showed at that time.
 */
public interface ChangedRecords {

	/** The resource ({@code metrics}, {@code assessments}). */
	String resource();

	/** Appends the record's view as it was at {@code change}. */
	void writeRecord(StringBuilder out, ChangeRow change);

}
