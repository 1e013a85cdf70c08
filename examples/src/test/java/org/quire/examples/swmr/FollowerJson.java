package org.quire.examples.swmr;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one JSON line {@link SwmrFollow} and {@code swmr_follow.py} print, as the tests read it. */
final class FollowerJson {

    private static final Pattern NUMBER = Pattern.compile("\"(\\w+)\": (-?\\d+)[,}]");

    private FollowerJson() {
    }

    /** The line's whole-number fields (strings, null and fractions left out). */
    static Map<String, Long> counts(String json) {
        Map<String, Long> counts = new TreeMap<>();
        Matcher number = NUMBER.matcher(json);
        while (number.find()) {
            counts.put(number.group(1), Long.parseLong(number.group(2)));
        }
        return counts;
    }
}
