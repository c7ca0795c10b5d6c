//! `arrsh kernel install` / `remove`: the kernelspec Jupyter starts arrsh from (`kernel.json`,
//! logos), in Jupyter's user, prefix or system data directory.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::picture::{self, Image};

/// Where kernelspecs go: `--user`, `--prefix DIR`, or (neither) the system's.
pub enum Place {
    User,
    Prefix(PathBuf),
    System,
}

impl Place {
    /// Jupyter's data directory for this place.
    fn data_dir(&self) -> Result<PathBuf, String> {
        match self {
            Place::Prefix(prefix) => Ok(prefix.join("share").join("jupyter")),
            Place::System => Ok(PathBuf::from("/usr/local/share/jupyter")),
            Place::User => match std::env::var_os("JUPYTER_DATA_DIR") {
                Some(dir) => Ok(PathBuf::from(dir)),
                None if cfg!(target_os = "macos") => dirs::home_dir()
                    .map(|home| home.join("Library").join("Jupyter"))
                    .ok_or_else(|| "no home directory".to_string()),
                None => dirs::data_dir()
                    .map(|data| data.join("jupyter"))
                    .ok_or_else(|| "no data directory".to_string()),
            },
        }
    }

    fn kernel_dir(&self, name: &str) -> Result<PathBuf, String> {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(format!(
                "`{name}` is not a kernel name: use letters, digits, `.`, `_` and `-`"
            ));
        }
        Ok(self.data_dir()?.join("kernels").join(name))
    }
}

/// Writes the kernelspec `name`, starting this executable with `--device DEVICE` unless it is
/// the cpu (`gpu` or `auto`).
pub fn install(place: &Place, name: &str, device: &str) -> Result<PathBuf, String> {
    let dir = place.kernel_dir(name)?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find arrsh itself: {e}"))?;
    let mut argv = vec![
        exe.display().to_string(),
        "kernel".into(),
        "--connection-file".into(),
        "{connection_file}".into(),
    ];
    if device != "cpu" {
        argv.extend(["--device".into(), device.into()]);
    }
    let spec = json!({
        "argv": argv,
        "display_name": if device == "cpu" { "arrsh".to_string() } else { format!("arrsh ({device})") },
        "language": "arrsh",
        "interrupt_mode": "signal",
        "metadata": { "debugger": false },
    });
    let failed =
        |e: std::io::Error| format!("cannot write the kernelspec in {}: {e}", dir.display());
    std::fs::create_dir_all(&dir).map_err(failed)?;
    let text = serde_json::to_string_pretty(&spec).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("kernel.json"), text + "\n").map_err(failed)?;
    for size in [32, 64] {
        std::fs::write(dir.join(format!("logo-{size}x{size}.png")), logo(size)?).map_err(failed)?;
    }
    Ok(dir)
}

/// Removes the kernelspec `name`.
pub fn remove(place: &Place, name: &str) -> Result<PathBuf, String> {
    let dir = place.kernel_dir(name)?;
    if !dir.join("kernel.json").is_file() {
        return Err(format!("no kernelspec `{name}` in {}", parent_text(&dir)));
    }
    std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    Ok(dir)
}

fn parent_text(dir: &Path) -> String {
    dir.parent()
        .map_or(String::new(), |p| p.display().to_string())
}

/// arrsh's logo: a 4×4 array of cells on white, shading from the cpu's blue to the gpu's green.
fn logo(size: u32) -> Result<Vec<u8>, String> {
    let cell = size / 4;
    let mut rgb = Vec::with_capacity((size * size * 3) as usize);
    for y in 0..size {
        for x in 0..size {
            let t = (x / cell + y / cell) as f32 / 6.0;
            let gap = x % cell == 0 || y % cell == 0;
            rgb.extend_from_slice(&match gap {
                true => [255, 255, 255],
                false => [
                    (40.0 + 20.0 * t) as u8,
                    (110.0 + 90.0 * t) as u8,
                    (200.0 - 120.0 * t) as u8,
                ],
            });
        }
    }
    let image = Image {
        width: size as usize,
        height: size as usize,
        rgb,
    };
    picture::image_png(&image).map_err(|e| format!("cannot encode the logo: {}", e.message))
}
