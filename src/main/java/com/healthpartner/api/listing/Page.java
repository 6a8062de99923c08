package com.healthpartner.api.listing;

import java.util.List;

/**
 * A list answer: {@code {"data": [...], "next_cursor": "..." | null}}.
 */
public record Page<T>(List<T> data, String nextCursor) {
}
