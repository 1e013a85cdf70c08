package org.quire.launcher.sion;

import org.quire.format.sion.PhysicalFileMetadata;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskLocation;
import org.quire.launcher.JsonWriter;
import org.quire.launcher.sion.DumpFields.Field;

import java.util.List;

/**
 * The JSON form of {@code quire sion dump}: {@code {"name", "member_alone", "files": [...],
 * "tasks": [...]}} with the same fields as the text form; the mapping is an array of
 * {@code [file, local rank]} pairs in global task order, a value not stored is {@code null}.
 */
final class DumpJson {

    private DumpJson() {
    }

    static String of(SionSetMetadata set) {
        JsonWriter json = new JsonWriter().beginObject();
        json.name("name").value(set.name().toString());
        json.name("member_alone").value(set.memberAlone());
        json.name("files").beginArray();
        for (PhysicalFileMetadata file : set.files()) {
            object(json, DumpFields.header(file));
        }
        json.endArray();
        json.name("tasks").beginArray();
        for (SionTask task : set.tasks()) {
            object(json, DumpFields.task(task));
        }
        return json.endArray().endObject().toJson();
    }

    private static void object(JsonWriter json, List<Field> fields) {
        json.beginObject();
        for (Field field : fields) {
            json.name(field.name());
            Object value = field.value();
            if (value instanceof Long number) {
                json.value(number.longValue());
            } else if (value instanceof long[] numbers) {
                json.value(numbers);
            } else if (value instanceof List<?> mapping) {
                json.beginArray();
                for (Object entry : mapping) {
                    TaskLocation location = (TaskLocation) entry;
                    json.value(new long[] {location.fileNumber(), location.localRank()});
                }
                json.endArray();
            } else {
                json.value((String) value);
            }
        }
        json.endObject();
    }
}
