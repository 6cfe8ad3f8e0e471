//! The default icon of a new crate and of a bundle without one: a PNG of
//! 512 × 512 pixels (the size Claude Desktop recommends), a disc on a square in a colour taken from the server's name.

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;

/// The icon's side, in pixels.
const SIDE: u32 = 512;

/// The PNG bytes of the default icon of the server `name`.
pub(crate) fn png(name: &str) -> Vec<u8> {
    // A hue from the name, so that two servers side by side differ.
    let hash = name.bytes().fold(2166136261u32, |hash, byte| (hash ^ u32::from(byte)).wrapping_mul(16777619));
    let background = hue((hash % 360) as f32);
    let foreground = [255u8, 255, 255];
    let centre = SIDE as f32 / 2.0;
    let radius = SIDE as f32 * 0.3;
    let mut raw = Vec::with_capacity(((SIDE * 3 + 1) * SIDE) as usize);
    for y in 0..SIDE {
        raw.push(0); // filter: none
        for x in 0..SIDE {
            let (dx, dy) = (x as f32 + 0.5 - centre, y as f32 + 0.5 - centre);
            let inside = dx * dx + dy * dy <= radius * radius;
            raw.extend_from_slice(if inside { &foreground } else { &background });
        }
    }
    let mut zlib = ZlibEncoder::new(Vec::new(), Compression::default());
    // Writing into a Vec cannot fail.
    let _ = zlib.write_all(&raw);
    let data = zlib.finish().unwrap_or_default();

    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&SIDE.to_be_bytes());
    header.extend_from_slice(&SIDE.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]); // 8 bits, RGB, deflate, adaptive filters, no interlace
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &data);
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&(data.len() as u32).to_be_bytes());
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    png.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// A saturated, darkish colour of hue `degrees`.
fn hue(degrees: f32) -> [u8; 3] {
    let (saturation, value) = (0.65f32, 0.7f32);
    let chroma = value * saturation;
    let x = chroma * (1.0 - ((degrees / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match degrees as u32 / 60 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = value - chroma;
    [r, g, b].map(|channel| ((channel + m) * 255.0).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_a_png_with_its_chunks_checked() {
        let png = png("notes");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(u32::from_be_bytes([png[16], png[17], png[18], png[19]]), SIDE);
        let ihdr_crc = u32::from_be_bytes([png[29], png[30], png[31], png[32]]);
        assert_eq!(ihdr_crc, crc32fast::hash(&png[12..29]));
        assert!(png.ends_with(&[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82]));
        assert_ne!(png, super::png("other"), "the colour follows the name");
    }
}
