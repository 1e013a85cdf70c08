package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.Datatype;

/**
 * The schema a collection file is written for: numpy's type numbers Hangar stores in
 * {@code schema_dtype_num}, the names and shapes it prints, and the shapes a record may have.
 */
class ArraySchemaTest {

    /**
     * numpy's {@code np.dtype(t).num} on 64-bit Linux, as printed by numpy 1.21 for
     * int8..uint64, float32 and float64 (NPY_BYTE 1 .. NPY_ULONG 8, NPY_FLOAT 11, NPY_DOUBLE 12).
     */
    @Test
    void everyElementTypeGetsNumpysTypeNumberAndName() {
        List<Object[]> expected = List.of(
                new Object[] {Datatype.INT8, 1, "int8"}, new Object[] {Datatype.UINT8, 2, "uint8"},
                new Object[] {Datatype.INT16, 3, "int16"}, new Object[] {Datatype.UINT16, 4, "uint16"},
                new Object[] {Datatype.INT32, 5, "int32"}, new Object[] {Datatype.UINT32, 6, "uint32"},
                new Object[] {Datatype.INT64, 7, "int64"}, new Object[] {Datatype.UINT64, 8, "uint64"},
                new Object[] {Datatype.FLOAT32, 11, "float32"}, new Object[] {Datatype.FLOAT64, 12, "float64"});
        for (Object[] row : expected) {
            ArraySchema schema = ArraySchema.of((Datatype) row[0], 4);
            assertEquals(row[1], schema.numpyTypeNumber(), row[2].toString());
            assertEquals(row[2] + " (4,)", schema.describe());
            assertEquals("schema " + row[2] + " (4,)", schema.toString());
        }
    }

    @Test
    void shapesPrintAsPythonTuples() {
        assertEquals("float32 (20, 2, 3)", ArraySchema.of(Datatype.FLOAT32, 20, 2, 3).describe());
        assertEquals("int64 ()", ArraySchema.of(Datatype.INT64).describe());
        assertEquals(1, ArraySchema.of(Datatype.INT64).elementCount());
        assertEquals(120, ArraySchema.of(Datatype.FLOAT32, 20, 2, 3).elementCount());
    }

    @Test
    void otherTypesAreNamedAsDatatypePrintsThem() {
        Datatype bigFloat = new Datatype.FloatType(4, ByteOrder.BIG_ENDIAN);
        assertEquals(bigFloat.toString(), ArraySchema.typeName(bigFloat));
        assertEquals(Datatype.EnumType.BOOLEAN.toString(), ArraySchema.typeName(Datatype.EnumType.BOOLEAN));
    }

    @Test
    void typesHangarDoesNotStoreAreRefused() {
        Datatype bigInt = new Datatype.IntegerType(4, true, ByteOrder.BIG_ENDIAN);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ArraySchema.of(bigInt, 2))
                .getMessage().startsWith("Hangar stores little-endian numbers"));
        Datatype threeBytes = new Datatype.IntegerType(3, true, ByteOrder.LITTLE_ENDIAN);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ArraySchema.of(threeBytes, 2))
                .getMessage().startsWith("no numpy integer of 3 bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ArraySchema.of(Datatype.EnumType.BOOLEAN, 2))
                .getMessage().startsWith("a Hangar array schema holds integers or floats"));
        assertThrows(IllegalArgumentException.class, () -> ArraySchema.of(Datatype.INT8, 2, 0));
    }

    @Test
    void schemasAreEqualByTypeAndShape() {
        ArraySchema a = ArraySchema.of(Datatype.INT32, 3, 4);
        assertEquals(a, ArraySchema.of(Datatype.INT32, 3, 4));
        assertEquals(a.hashCode(), ArraySchema.of(Datatype.INT32, 3, 4).hashCode());
        assertNotEquals(a, ArraySchema.of(Datatype.UINT32, 3, 4));
        assertNotEquals(a, ArraySchema.of(Datatype.INT32, 4, 3));
        assertNotEquals(a, SampleSchema.fixed(3, 4));
        // The shape handed in and out is a copy.
        long[] shape = a.shape();
        shape[0] = 9;
        assertArrayEquals(new long[] {3, 4}, a.shape());
    }

    @Test
    void aVariableShapeAdmitsEachExtentUpToItsMaximumAFixedOneExactlyIt() {
        SampleSchema variable = SampleSchema.variable(5, 2);
        assertTrue(variable.admits(0, 5));
        assertTrue(variable.admits(0, 0));
        assertFalse(variable.admits(0, 6));
        SampleSchema fixed = ArraySchema.of(Datatype.INT8, 5, 2).sampleSchema();
        assertTrue(fixed.admits(0, 5));
        assertFalse(fixed.admits(0, 4));
        assertFalse(fixed.admits(0, 6));
        assertEquals("variable-shape schema (5, 2)", variable.toString());
        assertEquals("fixed-shape schema (5, 2)", fixed.toString());
    }

    @Test
    void sampleSchemasAreEqualByShapeAndKind() {
        assertEquals(SampleSchema.fixed(5, 2), SampleSchema.fixed(5, 2));
        assertEquals(SampleSchema.fixed(5, 2).hashCode(), SampleSchema.fixed(5, 2).hashCode());
        assertNotEquals(SampleSchema.fixed(5, 2), SampleSchema.variable(5, 2));
        assertNotEquals(SampleSchema.fixed(5, 2).hashCode(), SampleSchema.variable(5, 2).hashCode());
        assertNotEquals(SampleSchema.fixed(5, 2), SampleSchema.fixed(5, 3));
        assertNotEquals(SampleSchema.fixed(5, 2), "(5, 2)");
    }
}
