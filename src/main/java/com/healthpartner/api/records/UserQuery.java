package com.healthpartner.api.records;

import java.util.UUID;

import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.listing.Cursors;

/**
 * What a list of one user's records asks for: the partner (always the first condition),
 * its user, the date range ({@link DateRange#ANY} where a list has none) and the keyset
 * position to start after (null for the first page).
 */
public record UserQuery(UUID partnerId, String userId, DateRange range, Cursors.Position after) {
}
