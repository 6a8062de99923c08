package com.healthpartner.api.changes;

import com.healthpartner.api.text.Utf8Bytes;

/**
 * A change as the feed shows it: its {@code change_id}, then the rest of it as stored
 * with it (V31's {@code change_item}: kind, resource, id, user, client record id, time
 * and the record as its write answered it), passed through.
 */
final class ChangeView {

	private ChangeView() {
	}

	static void write(Utf8Bytes out, ChangeRow change) {
		out.append("{\"change_id\":\"" + change.txid() + '.' + change.seq() + "\",").append(change.item());
	}

}
