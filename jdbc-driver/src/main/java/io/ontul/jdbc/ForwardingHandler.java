package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.sql.Wrapper;

/**
 * The handler behind the driver's JDBC proxies: every call goes to the Arrow object it wraps
 * unless {@link #handle} answers it, and every failure leaves as an SQLException with a SQLState.
 * {@code unwrap}/{@code isWrapperFor} see the proxy first, then the wrapped object.
 */
abstract class ForwardingHandler<T>
        implements InvocationHandler
{
    private static final Object[] NO_ARGUMENTS = new Object[0];

    private final T delegate;

    protected ForwardingHandler(T delegate)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    static <I> I proxy(Class<I> type, ForwardingHandler<? extends I> handler)
    {
        return type.cast(Proxy.newProxyInstance(ForwardingHandler.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    protected final T delegate()
    {
        return delegate;
    }

    @Override
    public final Object invoke(Object proxy, Method method, Object[] arguments)
            throws Throwable
    {
        Object[] values = arguments == null ? NO_ARGUMENTS : arguments;
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == values[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "Ontul " + delegate;
            };
        }
        try {
            if (method.getDeclaringClass() == Wrapper.class) {
                Class<?> type = (Class<?>) values[0];
                if (type.isInstance(proxy)) {
                    return method.getName().equals("unwrap") ? proxy : Boolean.TRUE;
                }
            }
            return handle(proxy, method, values);
        }
        catch (SQLException | RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    /** Answers a call of the proxy; the default passes it on unchanged. */
    protected Object handle(Object proxy, Method method, Object[] arguments)
            throws Throwable
    {
        return forward(method, arguments);
    }

    protected final Object forward(Method method, Object[] arguments)
            throws Throwable
    {
        try {
            return method.invoke(delegate, arguments);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
