package com.healthpartner.api.records;

/**
 * What a pending erasure hides. From the {@code 202} of an erasure on, every read leaves
 * out the user's records created by a transaction below the erasure's cut-off (the first
 * transaction id not yet started when it was requested), until the erasure's worker has
 * deleted them and completed it. The condition is one look-up of the small partial index
 * of pending erasures, evaluated once per query.
 */
public final class Erasures {

	private Erasures() {
	}

	/**
	 * The SQL condition under which a record (table alias {@code alias}) of partner
	 * {@code partner} and user {@code user} (SQL expressions) is visible.
	 */
	public static String visible(String alias, String partner, String user) {
		return alias + ".created_txid >= coalesce((select max(e.cutoff) from user_erasures e where e.partner_id = "
				+ partner + " and e.user_id = " + user + " and e.status = 'pending'), '0'::xid8)";
	}

}
