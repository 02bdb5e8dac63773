package dev.numlint.cuda;

import com.google.auto.service.AutoService;
import dev.numlint.model.HostLaunch;
import dev.numlint.spi.HostCodeReader;
import java.util.List;

/** The CUDA front end's reader of kernel launches in host code ({@link HostLaunchReader}), for validation. */
// HostCodeReader<T> is generic: the service file names its raw type, which is what ServiceLoader loads
@SuppressWarnings("rawtypes")
@AutoService(HostCodeReader.class)
public final class HostLaunchSource implements HostCodeReader<HostLaunch> {
    @Override
    public Class<HostLaunch> type() {
        return HostLaunch.class;
    }

    @Override
    public List<HostLaunch> read(String fileName, String text) {
        return HostLaunchReader.read(fileName, text);
    }
}
