// The handheld's printable case: a front shell (screen window, button holes, screw bosses) and a
// back shell (battery bay, standoffs, screw holes).  Every number comes from params.scad, which
// host_tools/hardware/case.py writes from host_tools/hardware/layout.py (`make case`): edit the
// layout there, never the numbers here.
//
//   openscad -D 'part="front"' -o front.stl case.scad     (part: "front", "back")
//
// Coordinates are the layout's: millimetres, x right and y down on the board seen from the
// front, z = 0 on the board's front face.  `make case` exports each shell lying on its outside
// face, the way it prints without supports.

include <params.scad>

part = "front";
fn = 48;
$fn = fn;

// A box [x0, y0, z0, x1, y1, z1] with its vertical edges rounded to r.
module rounded_box(b, r) {
    translate([b[0] + r, b[1] + r, b[2]])
        linear_extrude(height = b[5] - b[2])
            offset(r = r) square([b[3] - b[0] - 2 * r, b[4] - b[1] - 2 * r]);
}

module cube_box(b) {
    translate([b[0], b[1], b[2]]) cube([b[3] - b[0], b[4] - b[1], b[5] - b[2]]);
}

module openings_cut() {
    for (o = openings) cube_box(o);
}

module front_shell() {
    difference() {
        union() {
            difference() {
                rounded_box([shell[0], shell[1], split_z, shell[3], shell[4], shell[5]], corner_r);
                rounded_box([cavity[0], cavity[1], split_z - 1, cavity[3], cavity[4], cavity[5]], corner_r - wall);
            }
            // screw bosses from the plate down onto the board's front face
            for (m = mounts)
                translate([m[0], m[1], 0]) cylinder(d = boss_d, h = cavity[5] + 0.01);
        }
        for (m = mounts)
            translate([m[0], m[1], -1]) cylinder(d = boss_pilot_d, h = pilot_top + 1);
        for (h = button_holes)
            translate([h[0], h[1], cavity[5] - 1]) cylinder(d = h[2], h = plate + 2);
        cube_box([window[0], window[1], cavity[5] - 1, window[3], window[4], shell[5] + 1]);
        for (s = sound_holes)
            translate([s[0], s[1], cavity[5] - 1]) cylinder(d = sound_hole_d, h = plate + 2, $fn = 12);
        openings_cut();
    }
}

module back_shell() {
    difference() {
        union() {
            difference() {
                rounded_box([shell[0], shell[1], shell[2], shell[3], shell[4], split_z], corner_r);
                rounded_box([cavity[0], cavity[1], cavity[2], cavity[3], cavity[4], split_z + 1], corner_r - wall);
            }
            // standoffs from the floor up to the board's back
            for (m = mounts)
                translate([m[0], m[1], cavity[2] - 0.01]) cylinder(d = boss_d, h = split_z - cavity[2] + 0.01);
            // a low fence keeps the battery in its place
            difference() {
                cube_box([battery[0] - fence_t, battery[1] - fence_t, cavity[2] - 0.01,
                          battery[3] + fence_t, battery[4] + fence_t, cavity[2] + fence_h]);
                cube_box([battery[0] - 0.01, battery[1] - 0.01, cavity[2] - 1,
                          battery[3] + 0.01, battery[4] + 0.01, cavity[2] + fence_h + 1]);
                // a gap in the fence for the battery's leads
                cube_box([battery[3] - lead_gap - 2, battery[4] - 1, cavity[2] - 1,
                          battery[3] - 2, battery[4] + fence_t + 1, cavity[2] + fence_h + 1]);
            }
        }
        for (m = mounts) {
            translate([m[0], m[1], shell[2] - 1]) cylinder(d = standoff_hole_d, h = split_z - shell[2] + 2);
            translate([m[0], m[1], shell[2] - 1]) cylinder(d = screw_head_d, h = screw_head_h + 1);
        }
        openings_cut();
    }
}

if (part == "front") front_shell();
else if (part == "back") back_shell();
else if (part == "front_print") rotate([180, 0, 0]) front_shell();
else if (part == "back_print") back_shell();
