package com.healthpartner.api.changes;

/**
 * One stored change as a page reads it: its place in the feed ({@code txid},
 * {@code seq}), the resource and user of the record it shows (both {@code null} when it
 * shows none: {@code deleted}, {@code user_erased}), and the rest of the change as the
 * feed shows it ({@code item}: the JSON text after its {@code change_id}, written by the
 * statement that stored the change, in UTF-8).
 */
record ChangeRow(long txid, long seq, String shownResource, String shownUserId, byte[] item) {
}
