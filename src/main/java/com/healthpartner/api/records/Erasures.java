package com.healthpartner.api.records;

/**
 * What a pending erasure hides. From the {@code 202} of an erasure on, every read leaves
 * out the user's records created by a transaction below the erasure's cut-off (the first
 * transaction id not yet started when it was requested), until the erasure's worker has
 * deleted them and completed it. The condition is one look-up of the small partial index
 * of pending erasures (its last entry for the user: the latest cut-off), evaluated once
 * per query; a limit rather than {@code max}, which would set up an aggregate on every
 * execution.
 */
public final class Erasures {

	private Erasures() {
	}

	/**
	 * The SQL condition under which a record (table alias {@code alias}) of partner
	 * {@code partner} and user {@code user} (SQL expressions) is visible.
	 */
	public static String visible(String alias, String partner, String user) {
		return alias + ".created_txid >= coalesce((select e.cutoff from user_erasures e where e.partner_id = " + partner
				+ " and e.user_id = " + user + " and e.status = 'pending' order by e.cutoff desc limit 1), '0'::xid8)";
	}

}
