package io.ontul.engine.plan;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.apache.calcite.util.TimestampWithTimeZoneString;

import io.ontul.engine.expression.ZonedTimestamps;
import io.ontul.engine.sql.OntulOperatorTable;

/**
 * The session's time zone ({@code SET TIME ZONE}) written into the plan, where the meaning of
 * TIMESTAMP WITH TIME ZONE depends on it, as PostgreSQL has it: text without a zone is a local
 * time in the session's zone; an instant prints as its local time there (with the zone's name, as
 * Trino prints it); CAST between an instant and TIMESTAMP, DATE or TIME is its local time there;
 * {@code EXTRACT} (and {@code hour(x)}, {@code day(x)}, ...), {@code date_trunc} and
 * {@code date_format} of an instant work on its local time there. {@code CURRENT_TIMESTAMP},
 * {@code LOCALTIMESTAMP}, {@code now()}, {@code CURRENT_DATE} and {@code CURRENT_TIME} become the
 * local time there when the statement is planned, and {@code current_timezone()} the zone.
 * <p>
 * The zone is part of the plan (literals), so each node that plans or runs a part of the
 * statement sees the same. In UTC, the default, nothing changes: the operators' own forms assume it.
 */
final class SessionTimeZone
{
    private SessionTimeZone() {}

    /** @param zone the session's zone as {@code ZonedTimestamps.sessionZone} writes it */
    static RelNode apply(RelNode plan, String zone, RexBuilder rexBuilder)
    {
        if (zone.equals("UTC")) {
            return plan;
        }
        Rewriter rewriter = new Rewriter(zone, rexBuilder);
        return PlanNodes.rewrite(plan, node -> node.accept(rewriter));
    }

    private static final class Rewriter
            extends RexShuttle
    {
        private final String zone;
        private final RexBuilder rexBuilder;
        private final RexNode zoneLiteral;
        private final LocalDateTime now;

        Rewriter(String zone, RexBuilder rexBuilder)
        {
            this.zone = zone;
            this.rexBuilder = rexBuilder;
            this.zoneLiteral = rexBuilder.makeLiteral(zone);
            this.now = LocalDateTime.now(ZoneId.of(zone));
        }

        @Override
        public RexNode visitCall(RexCall original)
        {
            RexNode node = super.visitCall(original);
            if (!(node instanceof RexCall call)) {
                return node;
            }
            RelDataType type = call.getType();
            String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
            if (call.getKind() == SqlKind.CAST || call.getKind() == SqlKind.SAFE_CAST) {
                return cast(call, call.getKind() == SqlKind.SAFE_CAST);
            }
            if (call.getKind() == SqlKind.EXTRACT && isInstant(call.operands.get(1))) {
                return call.clone(type, List.of(call.operands.get(0), local(call.operands.get(1))));
            }
            if (name.equals("DATE_FORMAT") && isInstant(call.operands.get(0))) {
                List<RexNode> operands = new ArrayList<>(call.operands);
                operands.set(0, local(operands.get(0)));
                return call.clone(type, operands);
            }
            if (name.equals("DATE_TRUNC") && isInstant(call.operands.get(1))) {
                RexNode local = local(call.operands.get(1));
                RexNode truncated = call.clone(local.getType(), List.of(call.operands.get(0), local));
                return instant(truncated, type);
            }
            return switch (name) {
                case "CURRENT_TIMEZONE" -> rexBuilder.ensureType(type, rexBuilder.makeLiteral(zone), true);
                case "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "NOW" -> type.getSqlTypeName() == SqlTypeName.TIMESTAMP
                        ? rexBuilder.ensureType(type, rexBuilder.makeTimestampLiteral(timestamp(now, type.getPrecision()), type.getPrecision()), true)
                        : call;
                case "CURRENT_DATE" -> rexBuilder.ensureType(type, rexBuilder.makeDateLiteral(new DateString(now.getYear(), now.getMonthValue(), now.getDayOfMonth())), true);
                case "CURRENT_TIME", "LOCALTIME" -> rexBuilder.ensureType(type,
                        rexBuilder.makeTimeLiteral(new TimeString(now.getHour(), now.getMinute(), now.getSecond()).withMillis(now.getNano() / 1_000_000), 3), true);
                default -> call;
            };
        }

        private RexNode cast(RexCall cast, boolean safe)
        {
            RexNode operand = cast.operands.get(0);
            RelDataType type = cast.getType();
            SqlTypeName from = operand.getType().getSqlTypeName();
            SqlTypeName to = type.getSqlTypeName();
            if (from == SqlTypeName.TIMESTAMP_TZ && to != SqlTypeName.TIMESTAMP_TZ) {
                RexNode converted = switch (to) {
                    case CHAR, VARCHAR -> rexBuilder.makeCall(nullableAs(rexBuilder.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), operand),
                            OntulOperatorTable.TIMESTAMP_TZ_TO_TEXT, List.of(operand, zoneLiteral));
                    case TIMESTAMP, DATE, TIME -> local(operand);
                    default -> null;
                };
                return converted == null ? cast : castTo(type, converted, safe);
            }
            if (to == SqlTypeName.TIMESTAMP_TZ && from != SqlTypeName.TIMESTAMP_TZ) {
                return switch (from) {
                    case CHAR, VARCHAR -> {
                        RexNode instant = instantLiteral(operand, type);
                        if (instant != null) {
                            // known now: a literal, which a filter pushes into the scan
                            yield instant;
                        }
                        RexNode parsed = rexBuilder.makeCall(type, OntulOperatorTable.TIMESTAMP_TZ_FROM_TEXT, List.of(operand, zoneLiteral));
                        // TRY_CAST: NULL for text that is no timestamp, as the cast it replaces
                        yield safe ? rexBuilder.makeCall(type, OntulOperatorTable.TRY, List.of(parsed)) : parsed;
                    }
                    case TIMESTAMP -> instant(operand, type);
                    case DATE -> instant(rexBuilder.makeCast(nullableAs(rexBuilder.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, type.getPrecision()), operand), operand), type);
                    default -> cast;
                };
            }
            return cast;
        }

        /** The instant a text literal is in the session's zone, as a literal of {@code type}; null for other operands and text that is no timestamp (left to execution's error). */
        private RexNode instantLiteral(RexNode operand, RelDataType type)
        {
            if (!(operand instanceof RexLiteral literal) || literal.isNull()) {
                return null;
            }
            boolean micros = type.getPrecision() > 3;
            long epoch;
            try {
                epoch = ZonedTimestamps.parse(literal.getValueAs(String.class), micros, zone);
            }
            catch (RuntimeException e) {
                return null;
            }
            long unitsPerSecond = micros ? 1_000_000L : 1_000L;
            LocalDateTime utc = LocalDateTime.ofEpochSecond(Math.floorDiv(epoch, unitsPerSecond), (int) (Math.floorMod(epoch, unitsPerSecond) * (1_000_000_000L / unitsPerSecond)), ZoneOffset.UTC);
            TimestampWithTimeZoneString value = new TimestampWithTimeZoneString(timestamp(utc, type.getPrecision()), TimeZone.getTimeZone("UTC"));
            return rexBuilder.ensureType(type, rexBuilder.makeTimestampTzLiteral(value, type.getPrecision()), true);
        }

        /** An instant's local TIMESTAMP in the session's zone ({@code x AT TIME ZONE zone}), of the instant's precision. */
        private RexNode local(RexNode instant)
        {
            RelDataType type = nullableAs(rexBuilder.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, instant.getType().getPrecision()), instant);
            return rexBuilder.makeCall(type, OntulOperatorTable.AT_TIME_ZONE, List.of(instant, zoneLiteral));
        }

        /** The instant a local TIMESTAMP is in the session's zone, of {@code type} (a TIMESTAMP WITH TIME ZONE). */
        private RexNode instant(RexNode local, RelDataType type)
        {
            return rexBuilder.makeCall(nullableAs(type, local), OntulOperatorTable.AT_TIME_ZONE, List.of(local, zoneLiteral));
        }

        private RexNode castTo(RelDataType type, RexNode value, boolean safe)
        {
            if (value.getType().equals(type)) {
                return value;
            }
            return rexBuilder.makeCast(type, value, true, safe);
        }

        private RelDataType nullableAs(RelDataType type, RexNode operand)
        {
            return rexBuilder.getTypeFactory().createTypeWithNullability(type, operand.getType().isNullable());
        }

        private static boolean isInstant(RexNode node)
        {
            return node.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_TZ;
        }

        /** The literal of a local time, to {@code precision} fractional digits. */
        private static TimestampString timestamp(LocalDateTime time, int precision)
        {
            int unit = (int) Math.pow(10, 9 - Math.min(9, Math.max(0, precision)));
            return new TimestampString(time.getYear(), time.getMonthValue(), time.getDayOfMonth(), time.getHour(), time.getMinute(), time.getSecond())
                    .withNanos(time.getNano() / unit * unit);
        }
    }
}
